// The operating guide's `npm run chaos`, run as written at a tiny scale: its ledger shows nothing lost,
// nothing duplicated and no exit of the service's own.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { test } from '../../testkit/test.ts';
import { promisify } from 'node:util';

test('the operating guide\'s `npm run chaos` prints a ledger with nothing lost or duplicated', async () => {
  const readme = await fs.readFile('docs/operating.md', 'utf8');
  const block = readme.match(/## Checking a deployment[^\n]*\n\n```sh\n([^`]+)```/);
  assert.ok(block, 'the operating guide shows the command');
  const command = block[1]!.trim();
  assert.equal(command, 'npm run chaos');
  const { DATABASE_URL: _, ...inherited } = process.env;
  const { stdout } = await promisify(execFile)('sh', ['-c', command], {
    env: { ...inherited, CHAOS_ROUNDS: '1', CHAOS_SMTP_SENDERS: '2', CHAOS_API_SENDERS: '1', CHAOS_SETTLE: '0' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: { message: string; stdout: string; stderr: string }) => {
    throw new Error(`${err.message}\n${err.stdout}\n${err.stderr.split('\n').filter((l) => !l.startsWith('{')).join('\n').slice(-4000)}`);
  });
  assert.match(stdout, /chaos ledger/);
  const counted = JSON.parse(stdout.trim().split('\n').at(-1)!);
  assert.ok(counted.mails_acknowledged > 0, 'mail was acknowledged');
  assert.ok(counted.sends_accepted > 0, 'sends were accepted');
  assert.ok(counted.hang_ups > 0, 'some senders hung up after the final dot');
  assert.equal(counted.drill_kills, 1);
  assert.equal(counted.mails_lost, 0);
  assert.equal(counted.mails_duplicated, 0);
  assert.equal(counted.sends_lost, 0);
  assert.equal(counted.sends_duplicated_at_relay, 0);
  assert.equal(counted.sends_answered_twice_differently, 0);
  assert.equal(counted.process_exits, 0);
});
