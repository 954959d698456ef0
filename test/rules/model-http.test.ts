// The rule machine's model through real HTTP: a rule brought into every status, then every console
// verb tried on it. A legal verb succeeds; an illegal one is 409 and changes nothing, with the
// status and the verbs legal now (read off the machine) in errors[].
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const post = (path: string, body: object = {}) => svc.api.post(path, body, tenant.consoleToken);
const db = svc.services.db;

type Status = 'proposed' | 'active' | 'superseded' | 'retired';
type Verb = 'activate' | 'retire' | 'revise';

/** A fresh rule in `status`, reached through the API. */
async function ruleIn(status: Status): Promise<{ id: string; lineage_id: string }> {
  const created = await post(`${A}/rules`, { rule_text: `A rule to be ${status}.`, status: status === 'proposed' ? 'proposed' : 'active' });
  assert.equal(created.status, 201, created.text);
  if (status === 'superseded') assert.equal((await post(`${A}/rules/${created.body.id}/revisions`, { rule_text: 'Its next revision.' })).status, 201);
  if (status === 'retired') assert.equal((await post(`${A}/rules/${created.body.id}/retire`)).status, 200);
  const now = (await svc.api.get(`${A}/rules?lineage_id=${created.body.lineage_id}`, tenant.consoleToken)).body.data.find((r: any) => r.id === created.body.id);
  assert.equal(now.status, status);
  return created.body;
}

const call = (id: string, verb: Verb) => (verb === 'revise' ? post(`${A}/rules/${id}/revisions`, { rule_text: 'An edit.' }) : post(`${A}/rules/${id}/${verb}`));

// The machine's verbs legal in each status (supersede is what an edit does to the revision it replaces).
const LEGAL: Record<Status, Verb[]> = { proposed: ['activate', 'retire', 'revise'], active: ['retire', 'revise'], superseded: [], retired: [] };
const HINTS: Record<Status, string[]> = { proposed: ['activate', 'supersede', 'retire'], active: ['supersede', 'retire'], superseded: [], retired: [] };
const AFTER: Record<Verb, Status> = { activate: 'active', retire: 'retired', revise: 'superseded' };

for (const status of Object.keys(LEGAL) as Status[]) {
  for (const verb of ['activate', 'retire', 'revise'] as Verb[]) {
    const legal = LEGAL[status].includes(verb);
    test(`a ${status} rule: ${verb} is ${legal ? 'accepted' : 'refused with 409'}`, async () => {
      const rule = await ruleIn(status);
      const state = async () => (await db.query(`SELECT state, version FROM machine_instances WHERE kind = 'rule' AND id = $1`, [rule.id])).rows[0];
      const before = await state();
      const r = await call(rule.id, verb);
      if (legal) {
        assert.ok(r.status === 200 || r.status === 201, r.text);
        assert.equal((await state()).state, AFTER[verb]);
        return;
      }
      assert.equal(r.status, 409, r.text);
      assert.deepEqual(await state(), before, 'a refused verb changes nothing');
      if (status === 'superseded') {
        // Only the newest revision of a lineage is acted on: the answer points at it.
        assert.equal(r.body.code, 'stale');
        assert.equal(r.body.errors[0].field, 'id');
        return;
      }
      assert.equal(r.body.code, 'conflict');
      assert.deepEqual(r.body.errors.filter((e: any) => e.field === 'status').map((e: any) => e.code), [status]);
      const hinted = r.body.errors.filter((e: any) => e.field === 'allowed_action').map((e: any) => e.code);
      assert.deepEqual(hinted, HINTS[status], 'the hints are the machine\'s legal verbs');
    });
  }
}
