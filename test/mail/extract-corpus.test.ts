// The code and link extractors over a corpus of verification mails in the shapes real services
// send (test/fixtures/mail/verification/). Each fixture says what it expects in its own headers:
// `X-Expected-Code` and `X-Expected-Link` (a value, or `none` for a mail that has neither). The
// extractors see only the subject and bodies, never these headers.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from '../../testkit/test.ts';
import { extractCode, extractLink } from '../../mail/extract.ts';
import { parseMessage } from '../../mail/parse.ts';

const DIR = path.join(import.meta.dirname, '..', 'fixtures', 'mail', 'verification');

type Outcome = { file: string; kind: 'code' | 'link'; expected: string | null; got: string | null };

/** Precision and recall over the corpus, each expectation (code or link) counted once. */
export async function scoreCorpus(): Promise<{ outcomes: Outcome[]; precision: number; recall: number }> {
  const outcomes: Outcome[] = [];
  for (const file of fs.readdirSync(DIR).filter((f) => f.endsWith('.eml')).sort()) {
    const raw = fs.readFileSync(path.join(DIR, file));
    const header = (name: string) => new RegExp(`^X-Expected-${name}: (.*)$`, 'mi').exec(raw.toString('utf8'))?.[1]?.trim();
    const parsed = await parseMessage(raw);
    const content = { subject: parsed.subject, text: parsed.text, html: parsed.html };
    for (const [kind, extract] of [['code', extractCode], ['link', extractLink]] as const) {
      const wanted = header(kind === 'code' ? 'Code' : 'Link');
      if (wanted === undefined) continue;
      outcomes.push({ file, kind, expected: wanted === 'none' ? null : wanted, got: extract(content) });
    }
  }
  const found = outcomes.filter((o) => o.got !== null);
  const right = found.filter((o) => o.got === o.expected).length;
  const expected = outcomes.filter((o) => o.expected !== null).length;
  return { outcomes, precision: right / found.length, recall: right / expected };
}

test('code and link extraction over the verification corpus: precision and recall at least 95%', async () => {
  const { outcomes, precision, recall } = await scoreCorpus();
  const mails = new Set(outcomes.map((o) => o.file)).size;
  assert.ok(mails >= 30, `the corpus holds ${mails} mails`);
  const misses = outcomes.filter((o) => o.got !== o.expected);
  for (const m of misses) console.log(`# miss ${m.file} ${m.kind}: expected ${m.expected}, got ${m.got}`);
  console.log(`# corpus: ${mails} mails, ${outcomes.length} expectations; precision ${(precision * 100).toFixed(1)}%, recall ${(recall * 100).toFixed(1)}%`);
  assert.ok(precision >= 0.95, `precision ${precision}`);
  assert.ok(recall >= 0.95, `recall ${recall}`);
});

test('a code in the body is found when only the subject says "code"', async () => {
  const raw = fs.readFileSync(path.join(DIR, '01-code-word-only-in-subject.eml'));
  const parsed = await parseMessage(raw);
  assert.equal(extractCode({ subject: parsed.subject, text: parsed.text, html: parsed.html }), '771204');
});
