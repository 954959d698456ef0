// The diff recorded with a reviewer's edit: per changed field, the text before and after and a
// line diff (`-` removed, `+` added, ` ` kept), so the composer can learn what the human changed.

export type DiffLine = { op: ' ' | '-' | '+'; line: string };
export type FieldDiff = { field: string; before: string | null; after: string | null; lines: DiffLine[] };

// Beyond this many lines on each side the table of the longest common subsequence would be too
// large (n*m cells); such texts are recorded as a whole replacement.
const MAX_LINES = 2000;

export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length > MAX_LINES || b.length > MAX_LINES) {
    return [...a.map((line) => ({ op: '-' as const, line })), ...b.map((line) => ({ op: '+' as const, line }))];
  }
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs: Uint32Array[] = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', line: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) {
      out.push({ op: '-', line: a[i++]! });
    } else {
      out.push({ op: '+', line: b[j++]! });
    }
  }
  while (i < a.length) out.push({ op: '-', line: a[i++]! });
  while (j < b.length) out.push({ op: '+', line: b[j++]! });
  return out;
}

/** The fields an edit changed; empty when it changed nothing. */
export function editDiff(
  before: Record<string, string | null | undefined>,
  after: Record<string, string | null | undefined>,
): FieldDiff[] {
  const out: FieldDiff[] = [];
  for (const field of Object.keys(after)) {
    const next = after[field];
    if (next === undefined) continue;
    const prev = before[field] ?? null;
    if ((prev ?? '') === (next ?? '')) continue;
    out.push({ field, before: prev, after: next ?? null, lines: diffLines(prev ?? '', next ?? '') });
  }
  return out;
}
