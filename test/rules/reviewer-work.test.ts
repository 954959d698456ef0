// A reviewer agent's work item shows the rules version its draft was written under, through real
// HTTP: the project's high-water at submission, and the new one after a restamp.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { INTENT, agentWithInbox } from '../reviews/setup.ts';
import { linkReviewer, reviewerAgent } from '../reviews/reviewer-setup.ts';

const svc = await startTestService({ roles: ['api'] });

test('the reviewer work item carries the rules version the draft was composed under, and follows a restamp', async () => {
  const tenant = await createTenant(svc);
  const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  const link = await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, transport: 'sse' });
  assert.equal(link.status, 201, link.text);
  for (const rule_text of ['Sign off with the team name.', 'Use the 24-hour clock.']) {
    assert.equal((await svc.api.post(`${A}/rules`, { rule_text }, tenant.consoleToken)).status, 201);
  }
  const composedUnder = (await svc.api.get('/v1/rules', agent.key)).body.rules_version;
  assert.ok(composedUnder >= 2);

  const sent = await agent.send({ to: 'dana@acme.example', subject: 'Demo', text: 'Tuesday 15:00 works.', intent: INTENT });
  assert.equal(sent.status, 202, sent.text);
  const item = async () => (await reviewer.queue()).body.data.find((w: any) => w.review_id === sent.body.review_id);
  assert.equal((await item()).rules_version, composedUnder);

  assert.equal((await svc.api.post(`${A}/rules`, { rule_text: 'Name the meeting room.' }, tenant.consoleToken)).status, 201);
  assert.equal((await item()).rules_version, composedUnder, 'a rule change does not rewrite what the draft was written under');
  const restamped = await svc.api.post(`/v1/reviews/${sent.body.review_id}/restamp`, { parent_revision: 1 }, agent.key);
  assert.equal(restamped.status, 200, restamped.text);
  assert.equal((await item()).rules_version, composedUnder + 1);
});
