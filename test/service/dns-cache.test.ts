// The answer cache of inbound verdicts, against a real DNS server on loopback: what it keeps, for
// how long, and what it asks again.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { cachingResolver, dnsResolver, type ResolveFn } from '../../service/dns.ts';
import { startTestDns } from '../../testkit/dns.ts';

const dns = await startTestDns();

/** The loopback resolver, counting the queries that reach the server. */
function counted(): { resolve: ResolveFn; asked: string[] } {
  const asked: string[] = [];
  const real = dnsResolver({ dnsServers: [dns.server] }, 300);
  return { asked, resolve: (name, type) => (asked.push(`${type} ${name}`), real(name, type)) };
}

const txt = (answers: string[][]) => answers.map((parts) => parts.join(''));
const codeOf = (p: Promise<unknown>) => p.then(() => 'answered', (err: NodeJS.ErrnoException) => err.code);

test('a name asked again, or asked by many at once, is one query; its answer is each caller own copy', async () => {
  dns.txt('kept.example', 'v=spf1 -all');
  const { resolve, asked } = counted();
  const cached = cachingResolver(resolve);
  const together = await Promise.all([1, 2, 3, 4].map(() => cached('kept.example', 'TXT')));
  assert.deepEqual(together.map(txt), [1, 2, 3, 4].map(() => ['v=spf1 -all']));
  together[0]!.length = 0;
  assert.deepEqual(txt(await cached('KEPT.example', 'TXT')), ['v=spf1 -all'], 'names are case-insensitive, and one caller cannot change the answer');
  assert.deepEqual(asked, ['TXT kept.example']);
  await cached('kept.example', 'MX').catch(() => {});
  assert.equal(asked.length, 2, 'another record type is another question');
});

test('a missing name is kept like an answer; after the lifetime the record is asked again', async () => {
  dns.remove('later.example');
  const { resolve, asked } = counted();
  const cached = cachingResolver(resolve, { ttlMs: 1_000 });
  assert.equal(await codeOf(cached('later.example', 'TXT')), 'ENOTFOUND');
  dns.txt('later.example', 'v=DMARC1; p=none');
  assert.equal(await codeOf(cached('later.example', 'TXT')), 'ENOTFOUND', 'still the kept answer');
  assert.equal(asked.length, 1);
  await new Promise((r) => setTimeout(r, 1_200));
  assert.deepEqual(txt(await cached('later.example', 'TXT')), ['v=DMARC1; p=none']);
  assert.equal(asked.length, 2);
});

test('a server that does not answer is not remembered: the next ask goes to the server again', async () => {
  dns.txt('flaky.example', 'v=spf1 ip4:127.0.0.1 -all');
  const { resolve, asked } = counted();
  const cached = cachingResolver(resolve);
  dns.silent = true;
  try {
    assert.equal(await codeOf(cached('flaky.example', 'TXT')), 'ETIMEOUT');
  } finally {
    dns.silent = false;
  }
  assert.deepEqual(txt(await cached('flaky.example', 'TXT')), ['v=spf1 ip4:127.0.0.1 -all']);
  assert.equal(asked.length, 2);
});

test('past maxEntries the oldest name is forgotten', async () => {
  for (const n of ['a', 'b', 'c']) dns.txt(`${n}.many.example`, n);
  const { resolve, asked } = counted();
  const cached = cachingResolver(resolve, { maxEntries: 2 });
  for (const n of ['a', 'b', 'c']) await cached(`${n}.many.example`, 'TXT');
  await cached('c.many.example', 'TXT');
  await cached('b.many.example', 'TXT');
  assert.equal(asked.length, 3, 'b and c are kept');
  await cached('a.many.example', 'TXT');
  assert.equal(asked.length, 4, 'a was forgotten');
});
