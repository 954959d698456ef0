// Made-up text with the statistics of real mail: a vocabulary of invented words drawn with Zipf's
// law, and, in prose, English function words between them about as often as English has them.
// Deterministic, so every run stores and searches the same text.

/** A deterministic pseudo-random source. */
export function prng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

export function vocabulary(size: number, rand: () => number): string[] {
  const onsets = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'br', 'cl', 'dr', 'st', 'tr', 'pl', 'gr', 'sh', 'ch'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
  const codas = ['', 'n', 'r', 's', 't', 'l', 'nd', 'st', 'ck', 'm'];
  const words = new Set<string>();
  while (words.size < size) {
    const syllables = 2 + Math.floor(rand() * 2);
    let w = '';
    for (let i = 0; i < syllables; i++) w += onsets[Math.floor(rand() * onsets.length)]! + vowels[Math.floor(rand() * vowels.length)]!;
    words.add(w + codas[Math.floor(rand() * codas.length)]!);
  }
  return [...words];
}

/** Word ranks drawn with Zipf's law (exponent 1.07), as word frequencies in mail are. */
export function zipf(size: number, rand: () => number): () => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (let r = 1; r <= size; r++) cumulative.push((sum += 1 / r ** 1.07));
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

// The most frequent English words, most frequent first; they make up about 45% of running text.
const FUNCTION_WORDS = (
  'the of and to a in is that for it as with was on be by this are at from or have an not but which ' +
  'you we they will can all there been has if more their would were our its so no about into than them ' +
  'when also your what some could other these only then any may should such those after over'
).split(' ');
const FUNCTION_SHARE = 0.45;

/** Sentences of prose, about `bytes` long, lines parted by CRLF. */
export function prose(bytes: number, seed: number, words: string[]): string {
  const rand = prng(seed);
  const content = zipf(words.length, rand);
  const fn = zipf(FUNCTION_WORDS.length, rand);
  const out: string[] = [];
  let size = 0;
  while (size < bytes) {
    const length = 8 + Math.floor(rand() * 14);
    const sentence = Array.from({ length }, () => (rand() < FUNCTION_SHARE ? FUNCTION_WORDS[fn()]! : words[content()]!));
    const line = `${sentence.join(' ')}.`;
    out.push(line[0]!.toUpperCase() + line.slice(1));
    size += line.length + 2;
  }
  return out.join('\r\n');
}
