// Types of layout.js for the tests that run it under TypeScript (the page loads the .js alone).
export type Graph = { initial: string; states: Array<{ name: string; final: boolean }>; edges: Array<{ from: string; to: string; event: string; guard: string | null }> };
export type Box = { name: string; row: number; x: number; y: number };
export type Arrow = { from: string; to: string; events: string[] };
export const BOX: { w: number; h: number; gapX: number; gapY: number; pad: number };
export function layoutMachine(graph: Graph): { boxes: Map<string, Box>; width: number; height: number; arrows: Arrow[] };
export function arrowPath(a: Box, b: Box): string;
export function takenPairs(graph: Graph, transitions: Array<{ from_state: string | null; to_state: string }>): Set<string>;
