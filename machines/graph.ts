// A machine's states and transitions as plain data, for the console's machine view: the same
// walk over the definition as the Mermaid diagram (document order, so the output is
// deterministic), without the text format around it.
import type { AnyStateMachine, AnyStateNode } from 'xstate';

export type MachineGraph = {
  /** The state a new instance starts in, before its first event. */
  initial: string;
  states: Array<{ name: string; final: boolean }>;
  /** One entry per event and guard; a transition without a target is a self-loop. */
  edges: Array<{ from: string; to: string; event: string; guard: string | null }>;
};

/** A state's name as the runner stores it for a flat machine; a nested one is named by its path. */
const nameOf = (node: AnyStateNode): string => node.path.join('.');

/** How a guard is named in diagrams: its type, its function's name, or just `guard`. */
export function guardName(guard: unknown): string | null {
  if (guard == null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') return guard.type;
  if (typeof guard === 'function' && guard.name) return guard.name;
  return 'guard';
}

function walk(node: AnyStateNode, graph: MachineGraph): void {
  for (const child of Object.values(node.states) as AnyStateNode[]) {
    graph.states.push({ name: nameOf(child), final: child.type === 'final' });
    const add = (event: string, transitions: ReadonlyArray<{ target?: ReadonlyArray<AnyStateNode>; guard?: unknown }>) => {
      for (const t of transitions) {
        for (const target of t.target?.length ? t.target : [child]) {
          const edge = { from: nameOf(child), to: nameOf(target), event, guard: guardName(t.guard) };
          if (!graph.edges.some((e) => e.from === edge.from && e.to === edge.to && e.event === edge.event && e.guard === edge.guard)) graph.edges.push(edge);
        }
      }
    };
    for (const [event, transitions] of child.transitions) add(event, transitions);
    if (child.always) add('always', child.always);
    walk(child, graph);
  }
}

export function machineGraph(machine: AnyStateMachine): MachineGraph {
  const initial = machine.root.initial?.target?.[0];
  const graph: MachineGraph = { initial: initial ? nameOf(initial) : '', states: [], edges: [] };
  walk(machine.root, graph);
  return graph;
}
