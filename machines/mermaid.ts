// State diagrams generated from the machine definitions, for operators and the docs. Output is
// deterministic (document order of states and of their `on` keys), so a committed diagram can be
// compared with a fresh one.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { guardName } from './graph.ts';

type TransitionLike = { target?: ReadonlyArray<AnyStateNode>; guard?: unknown };

/**
 * Mermaid ids must be unique and plain (its lexer ends an id at `-`, `:`, `{` or a space): a nested
 * state is named by its path, anything else becomes `_`.
 */
function idOf(node: AnyStateNode): string {
  return node.path.join('_').replace(/[^A-Za-z0-9_]/g, '_');
}

/** A label runs to the end of the line and may not hold `:` or `;`. */
function cleanLabel(text: string): string {
  return text.replace(/[:;\n]/g, ' ');
}

function edgeLines(node: AnyStateNode, indent: string): string[] {
  const lines: string[] = [];
  const add = (eventLabel: string, transitions: readonly TransitionLike[]) => {
    for (const t of transitions) {
      const guard = guardName(t.guard);
      const label = cleanLabel(guard ? `${eventLabel} [${guard}]` : eventLabel);
      // A transition without a target stays put (context-only change): drawn as a self-loop.
      for (const target of t.target?.length ? t.target : [node]) {
        const line = `${indent}${idOf(node)} --> ${idOf(target)} : ${label}`;
        if (!lines.includes(line)) lines.push(line);
      }
    }
  };
  for (const [eventType, transitions] of node.transitions) add(eventType, transitions);
  if (node.always) add('always', node.always);
  return lines;
}

function render(parent: AnyStateNode, indent: string, lines: string[]): void {
  const children = Object.values(parent.states) as AnyStateNode[];
  if (children.length === 0) return;
  const initial = parent.type === 'parallel' ? [] : (parent.initial?.target ?? []);
  for (const target of initial) lines.push(`${indent}[*] --> ${idOf(target)}`);
  for (const child of children) {
    if (Object.keys(child.states).length > 0) {
      lines.push(`${indent}state ${idOf(child)} {`);
      render(child, `${indent}  `, lines);
      lines.push(`${indent}}`);
    }
  }
  for (const child of children) lines.push(...edgeLines(child, indent));
  for (const child of children) if (child.type === 'final') lines.push(`${indent}${idOf(child)} --> [*]`);
}

export function toMermaid(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  render(machine.root, '  ', lines);
  return `${lines.join('\n')}\n`;
}
