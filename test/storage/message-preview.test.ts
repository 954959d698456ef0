// A message's `preview` is the first 200 characters of its text with whitespace collapsed. The
// database collapses only the start of the text when that is enough (message_preview, migration
// 0037); it must answer exactly what collapsing the whole text answers, whatever the text.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { createLogger } from '../../service/logger.ts';
import { createPool, endPool } from '../../storage/db.ts';
import { createTestDatabase } from '../../testkit/db.ts';

const database = await createTestDatabase();
const db = createPool(database.url, createLogger('silent'));
after(async () => {
  await endPool(db);
  await database.drop();
});

/** Each text's preview and what collapsing the whole text gives, side by side. */
async function previews(texts: string[]): Promise<Array<{ got: string; whole: string }>> {
  const { rows } = await db.query<{ got: string; whole: string }>(
    `SELECT message_preview(t) AS got, left(regexp_replace(t, '\\s+', ' ', 'g'), 200) AS whole
       FROM unnest($1::text[]) WITH ORDINALITY AS u(t, i) ORDER BY i`,
    [texts],
  );
  return rows;
}

test('the preview collapses whitespace and keeps 200 characters, as collapsing the whole text does', async () => {
  const texts = [
    '',
    'Thursday at 18:00 works for me.',
    '  leading\r\n\r\nand\t\ttrailing   ',
    'word '.repeat(500),
    // A run of whitespace across the 400th character.
    'x'.repeat(150) + ' '.repeat(300) + 'y'.repeat(300),
    'a'.repeat(399) + ' \r\n\t ' + 'b'.repeat(300),
    // A start that is mostly whitespace: its first 400 characters collapse to fewer than 200.
    ' '.repeat(500) + 'after the blank start ' + 'z'.repeat(400),
    '\n'.repeat(1000),
    ('a \n').repeat(300) + 'tail',
    // Characters of several bytes around the cut.
    'é'.repeat(398) + '  ' + '日本語'.repeat(100),
    '🙂 '.repeat(300),
    // A text long enough to be compressed and stored apart from its row.
    Array.from({ length: 2000 }, (_, i) => `line ${i}\twith  spaces`).join('\r\n'),
  ];
  const rows = await previews(texts);
  rows.forEach((r, i) => assert.equal(r.got, r.whole, `text ${i}`));
  assert.equal(rows[1]!.got, 'Thursday at 18:00 works for me.');
  assert.equal(rows[2]!.got, ' leading and trailing ');
  assert.equal(rows[6]!.got, ' after the blank start ' + 'z'.repeat(177));
  assert.equal([...rows[9]!.got].length, 200);
});

test('random texts of words and whitespace runs get the preview collapsing the whole text gives', async () => {
  // A seeded generator: the same texts every run.
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const pieces = ['a', 'bc', 'é', ' ', '  ', '\n', '\r\n', '\t', ' '.repeat(40), '\n'.repeat(90)];
  const texts = Array.from({ length: 400 }, () => {
    const blanky = next() < 0.5;
    const length = Math.floor(next() * 1_500);
    let t = '';
    while (t.length < length) t += pieces[blanky && next() < 0.7 ? 3 + Math.floor(next() * 7) : Math.floor(next() * pieces.length)];
    return t;
  });
  const rows = await previews(texts);
  rows.forEach((r, i) => assert.equal(r.got, r.whole, `text ${i}: ${JSON.stringify(texts[i]!.slice(0, 60))}`));
  assert.ok(rows.filter((r, i) => texts[i]!.length > 400 && r.whole.length < 200).length > 10, 'some texts take the long way');
});
