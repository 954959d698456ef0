// Every rule.* event lands in the event log and on the agent's live stream (SSE), through real
// HTTP; webhooks take only message.received, as the contract says.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { openStream } from '../../testkit/sse-client.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const O = `/v1/admin/orgs/${tenant.orgId}`;
const A = `${O}/projects/${tenant.projectId}`;
const agent = await tenant.enroll('rule-reader');
const human = async (path: string, body: object = {}) => {
  const r = await svc.api.post(path, body, tenant.consoleToken);
  assert.ok(r.status === 200 || r.status === 201, `${path}: ${r.status} ${r.text}`);
  return r.body;
};

test('rule.created, rule.superseded and rule.undone reach the event log and the agent\'s stream, in order, each once', async () => {
  const stream = await openStream(svc.url, '/v1/events/stream?types=rule.created,rule.superseded,rule.undone', { token: agent.agentKey });
  assert.equal(stream.status, 200, stream.body);
  try {
    const created = await human(`${A}/rules`, { rule_text: 'Sign off with the team name.' });
    const revised = await human(`${A}/rules/${created.id}/revisions`, { rule_text: 'Sign off with "The Acme team".' });
    const audit = (await svc.api.get(`${A}/rules/audit`, tenant.consoleToken)).body.data;
    const reviseRow = audit.find((a: any) => a.action === 'revise' && a.after.id === revised.id);
    const restored = await human(`${A}/rules/audit/${reviseRow.id}/undo`);
    const orgRule = await human(`${O}/rules`, { rule_text: 'Never promise delivery dates.' });

    const expected = [
      ['rule.created', created.id],
      ['rule.created', revised.id],
      ['rule.superseded', created.id],
      ['rule.undone', restored.id],
      ['rule.superseded', revised.id],
      ['rule.created', orgRule.id],
    ];
    const seen = await stream.waitForEvents(expected.length);
    const onStream = seen.map((e) => [e.event, JSON.parse(e.data).rule.id]);
    assert.deepEqual(onStream, expected);
    for (const e of seen) {
      const body = JSON.parse(e.data);
      assert.equal(body.event, e.event);
      assert.equal(body.id, e.id, 'the frame id is the event id');
      assert.ok(['proposed', 'active', 'superseded', 'retired'].includes(body.rule.status));
    }

    const { rows } = await svc.services.db.query(
      `SELECT type, payload->'rule'->>'id' AS rule_id FROM events WHERE org_id = $1 AND project_id = $2 AND type LIKE 'rule.%' ORDER BY id`,
      [tenant.orgId, tenant.projectId],
    );
    assert.deepEqual(rows.map((r) => [r.type, r.rule_id]), expected, 'the log holds the same events, once each');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(stream.events.length, expected.length, 'nothing is sent twice');
  } finally {
    stream.close();
  }
});

test('a webhook cannot subscribe to rule events: only message.received is accepted', async () => {
  for (const events of [['rule.created'], ['rule.superseded'], ['rule.undone'], ['message.received', 'rule.created']]) {
    const r = await svc.api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events }, agent.agentKey);
    assert.equal(r.status, 400, JSON.stringify(events));
    assert.equal(r.body.code, 'bad_request');
    assert.ok(r.body.errors.some((e: any) => e.field.startsWith('events')), r.text);
  }
  const ok = await svc.api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['message.received'] }, agent.agentKey);
  assert.equal(ok.status, 201, ok.text);
  assert.deepEqual(ok.body.events, ['message.received']);
  const { rows } = await svc.services.db.query('SELECT count(*)::int AS n FROM webhooks WHERE org_id = $1', [tenant.orgId]);
  assert.equal(rows[0].n, 1, 'the refused registrations stored nothing');
});
