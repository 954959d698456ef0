// Graduated autonomy end to end, through real HTTP, the real workers and a real SMTP relay on
// loopback: approvals unchanged graduate a category, its next send goes straight to the relay,
// a first-contact recipient still waits for a human, and edits in a row demote it again.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { INTENT, agentWithInbox } from '../reviews/setup.ts';
import { startRelay } from '../../testkit/relay.ts';
import { inCanary } from '../../machines/policy/auto-send.ts';

const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url } });
const tenant = await createTenant(svc, { plan: 'developer' });
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const human = (path: string, body: object = {}) => svc.api.post(path, body, tenant.consoleToken);
const agent = await agentWithInbox(svc, tenant);
const dial = await svc.api.patch(`${A}/review-settings`,
  { graduate_min_approvals: 3, graduate_min_age_hours: 0, drift_demote_after: 2, first_contact_gate: true, min_confidence: 0.5 }, tenant.consoleToken);
assert.equal(dial.status, 200, dial.text);

const category = async (name: string, risk: object | null = null) => {
  const r = await human(`${A}/categories`, { name, risk });
  assert.equal(r.status, 201, r.text);
  return r.body.id as string;
};
const send = async (to: string, category_id: string, intent: object = INTENT) => {
  const r = await agent.send({ to, subject: 'Demo', text: 'Tuesday at 10 works.', intent, category_id });
  assert.equal(r.status, 202, r.text);
  return r.body;
};
const rung = async (id: string) => (await svc.api.get(`/v1/categories/${id}`, agent.key)).body.rung;
const atRelay = (id: string) => relay.received.filter((m) => m.mail.messageId === `<${id}.1@agents.test>`).length;
const categoryEvents = async (id: string) =>
  (await svc.services.db.query(`SELECT type, payload FROM events WHERE org_id = $1 AND payload->'category'->>'id' = $2 ORDER BY id`, [tenant.orgId, id])).rows
    .map((r) => [r.type, r.payload.to_rung, r.payload.by]);

test('approvals unchanged graduate a category; its next send is auto-sent to the relay; first contact waits; two edits demote it', async () => {
  const cat = await category('Demo confirmations');
  // Three approvals unchanged, to one recipient; a draft to a new recipient waits in the queue meanwhile.
  let waiting = '';
  for (let i = 0; i < 3; i++) {
    const queued = await send('dana@acme.example', cat);
    assert.equal(queued.outcome, 'queued_for_review');
    assert.equal(queued.review.mode_reason, 'category_supervised');
    if (i === 2) waiting = (await send('bob@new.example', cat)).review_id;
    const approved = await agent.decide(queued.review_id, { action: 'approve' });
    assert.equal(approved.status, 200, approved.text);
    await agent.until(queued.review_id, 'sent');
    assert.equal(await rung(cat), i < 2 ? 'supervised' : 'auto_notify', `after approval ${i + 1}`);
  }
  assert.deepEqual(await categoryEvents(cat), [['category.graduated', 'auto_notify', 'earned']]);
  // The draft still queued when the category graduated is told to re-submit.
  const recheck = (await agent.drain(`?review_id=${waiting}`)).filter((e: any) => e.type === 'review.recheck_category');
  assert.equal(recheck.length, 1);
  assert.match(recheck[0].broadcast_id, /^brd_/);
  assert.equal(recheck[0].category_id, cat);
  assert.equal(recheck[0].rung, 'auto_notify');

  // The next send in it goes straight to the relay.
  const auto = await send('dana@acme.example', cat);
  assert.equal(auto.outcome, 'released');
  assert.equal(auto.effective_mode, 'auto');
  assert.equal(auto.review.mode_reason, 'category_auto_notify');
  await agent.until(auto.review_id, 'auto_sent');
  assert.equal(atRelay(auto.review_id), 1);
  const autoEvents = await agent.drain(`?review_id=${auto.review_id}`);
  assert.deepEqual(autoEvents.map((e: any) => [e.type, e.effective_mode, e.notify_human, e.rung]), [['review.auto_sent', 'auto', true, 'auto_notify']]);

  // A first mail to a new recipient stays in review; so does a send less confident than the dial.
  const first = await send('carol@new.example', cat);
  assert.equal(first.outcome, 'queued_for_review');
  assert.equal(first.review.mode_reason, 'first_contact_gate');
  assert.equal(first.review.effective_mode, 'review');
  const unsure = await send('dana@acme.example', cat, { ...INTENT, meta: { confidence: 0.2 } });
  assert.equal(unsure.review.mode_reason, 'min_confidence');
  assert.equal(atRelay(first.review_id) + atRelay(unsure.review_id), 0);

  // Two edits in a row demote it one rung.
  for (const id of [first.review_id, waiting]) {
    const edited = await agent.decide(id, { action: 'edit', text: 'Tuesday at 10:00 CET works.' });
    assert.equal(edited.status, 200, edited.text);
  }
  assert.equal(await rung(cat), 'supervised');
  assert.deepEqual((await categoryEvents(cat)).at(-1), ['category.demoted', 'supervised', 'drift']);
  const after = await send('dana@acme.example', cat);
  assert.equal(after.outcome, 'queued_for_review');
  assert.equal(after.review.mode_reason, 'category_supervised');
});

test('a rejection counts as drift and an approval with a note is still clean; the category record shows the runs', async () => {
  const cat = await category('Runs', { graduate_min_approvals: 10 });
  const a = await send('dana@acme.example', cat);
  await agent.decide(a.review_id, { action: 'reject', feedback: 'Too short.' });
  let record = (await svc.api.get(`/v1/categories/${cat}`, agent.key)).body;
  assert.deepEqual([record.clean_approvals, record.drift_count], [0, 1]);
  const b = await send('dana@acme.example', cat);
  await agent.decide(b.review_id, { action: 'approve', feedback: 'Fine.' });
  record = (await svc.api.get(`/v1/categories/${cat}`, agent.key)).body;
  assert.deepEqual([record.clean_approvals, record.drift_count], [1, 0]);
});

test('canary on autonomous: exactly the sends whose review id falls in the canary share are reviewed, the same on every replay', async () => {
  const cat = await category('Canary', { graduate_min_approvals: 0, graduate_min_age_hours: 0, canary_rate: 0.5 });
  assert.equal((await human(`${A}/categories/${cat}/graduate`)).body.rung, 'auto_notify');
  assert.equal((await human(`${A}/categories/${cat}/graduate`)).body.rung, 'autonomous');
  const sent: any[] = [];
  for (let i = 0; i < 12; i++) sent.push(await send('dana@acme.example', cat));
  for (const s of sent) {
    const canary = inCanary(s.review_id, 0.5);
    assert.equal(s.review.mode_reason, canary ? 'canary_rate' : 'category_autonomous', s.review_id);
    assert.equal(s.outcome, canary ? 'queued_for_review' : 'released');
  }
  assert.ok(sent.some((s) => s.outcome === 'released') && sent.some((s) => s.outcome === 'queued_for_review'), 'both sides of the share');
  await waitFor(async () => {
    const rows = await Promise.all(sent.filter((s) => s.outcome === 'released').map((s) => agent.review(s.review_id)));
    return rows.every((r) => r.body.state === 'auto_sent') || null;
  }, 'the released sends to be delivered');
});

test('backlog status counts queued drafts against the rules high-water, on both planes', async () => {
  const cat = await category('Backlog');
  const one = await send('dana@acme.example', cat);
  const two = await send('dana@acme.example', cat);
  const backlog = () => svc.api.get(`/v1/categories/${cat}/backlog-status`, agent.key);
  const before = await backlog();
  assert.equal(before.status, 200, before.text);
  assert.deepEqual(before.body, { category_id: cat, queued: 2, current_enough: 2, needs_redraft: 0, staleness_tolerance: 0, rules_version: before.body.rules_version });
  const rule = await human(`${A}/rules`, { rule_text: 'Always name the time zone.' });
  assert.equal(rule.status, 201, rule.text);
  const stale = await backlog();
  assert.deepEqual([stale.body.queued, stale.body.current_enough, stale.body.needs_redraft], [2, 0, 2]);
  assert.equal(stale.body.rules_version, before.body.rules_version + 1);
  const restamped = await svc.api.post(`/v1/reviews/${one.review_id}/restamp`, { parent_revision: 1 }, agent.key);
  assert.equal(restamped.status, 200, restamped.text);
  await svc.api.post(`/v1/reviews/${two.review_id}/cancel`, {}, agent.key);
  const console = await svc.api.get(`${A}/categories/${cat}/backlog-status`, tenant.consoleToken);
  assert.deepEqual([console.body.queued, console.body.current_enough, console.body.needs_redraft], [1, 1, 0]);
});
