// Drafts meet the rules high-water, through real HTTP: a draft records the rules version it was
// composed under; a redraft built against older rules is 409 born_stale and changes nothing;
// restamp moves a draft to the current rules without a content change.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { INTENT, agentWithInbox } from '../reviews/setup.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const agent = await agentWithInbox(svc, tenant);
const human = (path: string, body: object = {}) => svc.api.post(path, body, tenant.consoleToken);
const rulesVersion = async () => (await svc.api.get('/v1/rules', agent.key)).body.rules_version as number;

async function draft(): Promise<any> {
  const r = await agent.send({ to: ['dana@acme.example'], subject: 'Demo', text: 'Tuesday works.', intent: INTENT });
  assert.equal(r.status, 202, r.text);
  return (await agent.review(r.body.review_id ?? r.body.id)).body;
}

test('a draft records the rules version it was composed under', async () => {
  await human(`${A}/rules`, { rule_text: 'Sign off with the team name.' });
  const v = await rulesVersion();
  assert.ok(v >= 1);
  const review = await draft();
  assert.equal(review.rules_version, v);
});

test('a redraft against an older rules version is 409 born_stale with the current version, and changes nothing', async () => {
  const review = await draft();
  const old = review.rules_version;
  await human(`${A}/rules`, { rule_text: 'Never use exclamation marks.' });
  const current = await rulesVersion();
  assert.equal(current, old + 1);

  const r = await svc.api.post(`/v1/reviews/${review.id}/revisions`, { parent_revision: 1, rules_version: old, text: 'Tuesday works!' }, agent.key);
  assert.equal(r.status, 409, r.text);
  assert.equal(r.body.code, 'born_stale');
  assert.deepEqual(r.body.errors.map((e: any) => [e.field, e.code]), [['rules_version', String(current)]]);
  const after = (await agent.review(review.id)).body;
  assert.equal(after.revision, 1);
  assert.equal(after.version, review.version);
  assert.equal(after.draft.text, 'Tuesday works.');
  assert.equal(after.rules_version, old);

  const ok = await svc.api.post(`/v1/reviews/${review.id}/revisions`, { parent_revision: 1, rules_version: current, text: 'Tuesday works.' }, agent.key);
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.revision, 2);
  assert.equal(ok.body.rules_version, current);
});

test('born_stale is answered at most once per high-water: the retry at the same high-water is taken; a newer high-water refuses once more', async () => {
  const review = await draft();
  const old = review.rules_version;
  await human(`${A}/rules`, { rule_text: 'Use the 24-hour clock.' });
  const first = await rulesVersion();
  const path = `/v1/reviews/${review.id}/revisions`;

  // Without rules_version the redraft is built against the draft's own, older, rules.
  const refused = await svc.api.post(path, { parent_revision: 1, text: 'Tuesday 15:00 works.' }, agent.key);
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.body.code, 'born_stale');
  const retried = await svc.api.post(path, { parent_revision: 1, rules_version: old, text: 'Tuesday 15:00 works.' }, agent.key);
  assert.equal(retried.status, 200, 'the second redraft at the same high-water is not refused again');
  assert.equal(retried.body.revision, 2);
  assert.equal(retried.body.rules_version, first, 'it is stamped with the high-water it was told of');

  await human(`${A}/rules`, { rule_text: 'Name the meeting room.' });
  const second = await rulesVersion();
  const again = await svc.api.post(path, { parent_revision: 2, rules_version: first, text: 'Tuesday 15:00 in Room 2.' }, agent.key);
  assert.equal(again.status, 409, 'a newer high-water is news again');
  assert.deepEqual(again.body.errors.map((e: any) => [e.field, e.code]), [['rules_version', String(second)]]);
  const once = await svc.api.post(path, { parent_revision: 2, rules_version: first, text: 'Tuesday 15:00 in Room 2.' }, agent.key);
  assert.equal(once.status, 200, once.text);
  assert.equal(once.body.rules_version, second);
});

test('restamp moves a draft to the current rules without a content change; a revise then succeeds', async () => {
  const review = await draft();
  await human(`${A}/rules`, { rule_text: 'Mention the time zone.' });
  const current = await rulesVersion();
  assert.ok(review.rules_version < current);
  const restamped = await svc.api.post(`/v1/reviews/${review.id}/restamp`, { parent_revision: 1 }, agent.key);
  assert.equal(restamped.status, 200, restamped.text);
  assert.equal(restamped.body.rules_version, current);
  assert.equal(restamped.body.revision, 1);
  assert.equal(restamped.body.draft.text, 'Tuesday works.');
  const revised = await svc.api.post(`/v1/reviews/${review.id}/revisions`, { parent_revision: 1, text: 'Tuesday 3pm CET works.' }, agent.key);
  assert.equal(revised.status, 200, revised.text);
  assert.equal(revised.body.rules_version, current);
});

test('a stale parent_revision is 409 stale even when the rules moved too', async () => {
  const review = await draft();
  await human(`${A}/rules`, { rule_text: 'Keep it short.' });
  const r = await svc.api.post(`/v1/reviews/${review.id}/revisions`, { parent_revision: 7, rules_version: 0, text: 'x' }, agent.key);
  assert.equal(r.status, 409);
  assert.equal(r.body.code, 'stale');
});
