// PostgreSQL's main process SIGKILLed under SMTP, send and delivery load, with the service as its
// own process: the service lives on, refuses meanwhile (451 on SMTP, 503 on HTTP), and once
// PostgreSQL is started again on the same folder it recovers by itself. Nothing acknowledged is lost.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from '../../testkit/test.ts';
import {
  SendLoad,
  closeScratch,
  SmtpLoad,
  killPostmaster,
  ledger,
  restartPostgres,
  sendOnce,
  setUpAgent,
  sleep,
  spawnService,
  until,
} from '../../testkit/drills.ts';
import { createLogger } from '../../service/logger.ts';
import { createPool } from '../../storage/db.ts';
import { openScratchEmbedded } from '../../storage/embedded.ts';
import { startRelay } from '../../testkit/relay.ts';

test('a SIGKILLed postmaster under load: the service lives on, answers 451 and 503, and recovers once PostgreSQL is back', async () => {
  const pg = await openScratchEmbedded({ flags: ['-c', 'fsync=off'] });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-crash-'));
  // Deliveries are held at the relay, each keeping its database connection checked out.
  const relay = await startRelay('hold-data');
  const svc = await spawnService({ DATABASE_URL: pg.url, DATA_DIR: dataDir, SMTP_URL: relay.url });
  after(async () => {
    if (svc.alive()) svc.child.kill('SIGKILL');
    relay.release();
    await relay.close();
    await closeScratch(pg);
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  const agent = await setUpAgent(svc, pg.url, dataDir);

  const smtp = new SmtpLoad(() => svc.smtpPort, agent.address).start(4);
  const sends = new SendLoad(() => svc.api, agent).start(2);
  after(() => Promise.all([smtp.stop(), sends.stop()]));
  let held = false;
  void relay.held.then(() => (held = true));
  await until(() => held && smtp.acknowledged.size >= 10 && sends.accepted.size >= 3, 'load to be under way', 30_000, svc);

  await killPostmaster(path.join(pg.dir, 'postgres'));
  await sleep(1_500);
  assert.ok(svc.alive(), `the service process is still running:\n${svc.output()}`);
  const raw = Buffer.from(`Subject: during\r\nMessage-ID: <during@sender.example>\r\n\r\nWhile the database is down.\r\n`);
  assert.match(await sendOnce(svc.smtpPort, 'a@sender.example', agent.address, raw), /^451 /, 'SMTP refuses for now');
  const during = await svc.api.get('/v1/auth/me', agent.key);
  assert.equal(during.status, 503);
  assert.equal(during.body.code, 'unavailable');

  relay.mode = 'accept';
  relay.release();
  await restartPostgres(pg);

  // Recovered by itself: a new mail is stored, and API calls succeed.
  await until(async () => (await svc.api.get('/v1/auth/me', agent.key)).status === 200, 'API calls to succeed again', 30_000, svc);
  const after_ = Buffer.from(`Subject: after\r\nMessage-ID: <after@sender.example>\r\n\r\nDatabase is back.\r\n`);
  await until(async () => (await sendOnce(svc.smtpPort, 'a@sender.example', agent.address, after_)).startsWith('250'), 'a new mail accepted', 30_000, svc);
  const listed = await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages?limit=5`, agent.key);
  assert.equal(listed.status, 200);
  assert.ok(listed.body.data.some((m: { subject: string }) => m.subject === 'after'), 'the new mail is stored');

  await Promise.all([smtp.stop(), sends.stop()]);
  assert.ok(svc.alive(), `the service process is still running:\n${svc.output()}`);
  assert.doesNotMatch(svc.output(), /Unhandled 'error' event/);

  // Every accepted send reaches the relay once the queue has caught up.
  const subjects = () => relay.received.map((m) => m.mail.subject ?? '');
  await until(() => [...sends.accepted.keys()].every((k) => subjects().includes(sends.subjectOf(k))), 'accepted sends to reach the relay', 45_000, svc);
  const db = createPool(pg.url, createLogger('silent'), 2);
  const counted = await ledger(db, agent.inboxId, [smtp], [sends], subjects(), 0).finally(() => db.end());
  assert.equal(counted.mails_lost, 0);
  assert.equal(counted.mails_duplicated, 0);
  assert.equal(counted.sends_answered_twice_differently, 0);
  assert.equal(counted.sends_duplicated_at_relay, 0);

  const stopped = await svc.stop();
  assert.equal(stopped.code, 0, svc.output());
});
