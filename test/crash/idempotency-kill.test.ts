// A send whose API process is SIGKILLed mid-request, retried with the same Idempotency-Key on
// another process: once the dead request's lease lapses the retry runs it (it never took effect)
// and answers 202, instead of "still running" for a day. The review and the stored reply commit
// together, so there is never a review without its replay, nor a second review.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import pg from 'pg';
import { setUpAgent, spawnService, until, type Agent } from '../../testkit/drills.ts';
import { inboxSendLock } from '../../storage/reviews.ts';
import { startTestService } from '../../testkit/service.ts';

const LEASE = { IDEMPOTENCY_LEASE_SECONDS: '2' };
const svc = await startTestService({ roles: ['api'], env: LEASE });

const send = (agent: Agent, key: string) =>
  svc.api.post(`/v1/inboxes/${agent.inboxId}/send`, { to: 'dana@acme.example', subject: `Order ${key}`, text: 'Confirmed.' }, agent.key, {
    'Idempotency-Key': key,
  });

async function connect(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: svc.databaseUrl });
  await c.connect();
  return c;
}

/** The backend of another process waiting on a lock while running `like`, once there is one. */
async function waitingBackend(db: pg.Client, like: string): Promise<number> {
  return until(async () => {
    const { rows } = await db.query(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE $1`,
      [like],
    );
    return rows[0]?.pid as number | undefined;
  }, `a backend waiting on a lock in ${like}`);
}

/** Runs `stall` while a child service handles a send with `key`, then SIGKILLs it there. */
async function killMidSend(
  agent: Agent,
  key: string,
  stall: (db: pg.Client, held: pg.Client) => Promise<(() => Promise<void>) | void>,
): Promise<void> {
  const child = await spawnService({ DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.config.dataDir, ...LEASE }, { roles: ['api'] });
  const held = await connect();
  const db = await connect();
  try {
    // The send's transaction starts by taking this lock: the request stops there.
    await held.query('BEGIN');
    await held.query('SELECT pg_advisory_xact_lock($1)', [inboxSendLock(agent.inboxId).toString()]);
    const pending = child.api
      .post(`/v1/inboxes/${agent.inboxId}/send`, { to: 'dana@acme.example', subject: `Order ${key}`, text: 'Confirmed.' }, agent.key, {
        'Idempotency-Key': key,
      })
      .catch(() => null);
    await until(async () => (await db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [key])).rowCount === 1, 'the key to be claimed');
    const afterKill = await stall(db, held);
    child.child.kill('SIGKILL');
    await child.exited;
    await afterKill?.();
    assert.equal(await pending, null, 'the client never got an answer');
  } finally {
    await held.query('ROLLBACK').catch(() => {});
    await held.end();
    await db.end();
    if (child.alive()) child.child.kill('SIGKILL');
  }
}

async function reviewsOf(agent: Agent): Promise<string[]> {
  return (await svc.services.db.query('SELECT id FROM reviews WHERE inbox_id = $1', [agent.inboxId])).rows.map((r) => r.id);
}

async function retriedOnce(agent: Agent, key: string): Promise<void> {
  const retry = await send(agent, key);
  assert.equal(retry.status, 202, retry.text);
  assert.deepEqual(await reviewsOf(agent), [retry.body.review_id], 'one review');
  const again = await send(agent, key);
  assert.equal(again.status, 202);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.body.review_id, retry.body.review_id);
}

test('killed before its transaction committed: a retry after the lease runs the send, once', async () => {
  const agent = await setUpAgent(svc, svc.databaseUrl, svc.config.dataDir);
  await killMidSend(agent, 'before-commit', async (db) => {
    await waitingBackend(db, '%pg_advisory_xact_lock%');
  });
  assert.deepEqual(await reviewsOf(agent), [], 'nothing took effect');
  await retriedOnce(agent, 'before-commit');
});

test('killed while storing its reply: the review and the reply commit together, and a retry gives one review', async () => {
  const agent = await setUpAgent(svc, svc.databaseUrl, svc.config.dataDir);
  await killMidSend(agent, 'storing-reply', async (db, held) => {
    // The claim row is locked, then the send is let go: it stops where it stores its reply.
    const row = await connect();
    await row.query('BEGIN');
    await row.query(`SELECT 1 FROM idempotency_keys WHERE key = 'storing-reply' FOR UPDATE`);
    await held.query('COMMIT');
    const pid = await waitingBackend(db, '%SET status%');
    return async () => {
      // The dead process's backend goes with it (as it would once it next spoke to its client).
      await db.query('SELECT pg_terminate_backend($1)', [pid]);
      await row.query('ROLLBACK');
      await row.end();
    };
  });
  await retriedOnce(agent, 'storing-reply');
});
