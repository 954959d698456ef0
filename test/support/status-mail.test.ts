// Who hears of a support case's status changes: the reporting agent's inbox and the org's human
// owners and admins. It used to be the agent's inbox only, and no one at all when the reporting
// agent had no inbox.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, test } from '../../testkit/test.ts';
import { insertMembership, upsertUser } from '../../storage/tenancy.ts';
import { createTenant, startTestService, type TestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';

const STAFF = 'staff@support.example';
const relay = await startRelay('accept');
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url, SUPPORT_STAFF_EMAILS: STAFF } });
const staffToken = await svc.services.identity.mint!(STAFF);

async function member(orgId: string, projectId: string | null, role: 'owner' | 'admin' | 'member' | 'viewer'): Promise<string> {
  const email = `${role}-${crypto.randomUUID()}@people.example`;
  const user = await upsertUser(svc.services.db, `usr_${crypto.randomUUID()}`, email);
  await insertMembership(svc.services.db, { org_id: orgId, user_id: user.id, project_id: projectId, role });
  return email;
}

/** A blocked send reported as feedback by the agent: it opens a support case. */
async function fileCase(service: TestService, projectId: string, agentKey: string) {
  const filed = await service.api.post(`/v1/projects/${projectId}/feedback`, {
    client_id: crypto.randomUUID(),
    category: 'unexpected_error',
    user_intent: 'Send the weekly report',
    observed_behavior: `The send failed ${crypto.randomUUID()}`,
    outcome: 'blocked',
  }, agentKey);
  assert.equal(filed.status, 201, filed.text);
  return filed;
}

/** Recipients of the relayed status mails of case number `n`, by status words in the subject. */
const statusMail = (caseNumber: number, status: string) =>
  relay.received.filter((m) => m.mail.subject?.startsWith(`[Support case ${caseNumber}] ${status}:`)).flatMap((m) => m.to.map((t) => t.toLowerCase()));

test("a case's status mail reaches the org's owners and admins, also when the reporting agent has no inbox; members and viewers get none", async () => {
  const tenant = await createTenant(svc, { plan: 'developer' });
  const admin = await member(tenant.orgId, null, 'admin');
  const projectAdmin = await member(tenant.orgId, tenant.projectId, 'admin');
  const plainMember = await member(tenant.orgId, null, 'member');
  const viewer = await member(tenant.orgId, tenant.projectId, 'viewer');
  const agent = await tenant.enroll();
  assert.equal((await svc.api.get('/v1/inboxes', agent.agentKey)).body.data.length, 0, 'the agent has no inbox');

  const filed = await fileCase(svc, tenant.projectId, agent.agentKey);
  const caseId = filed.body.linked_cases[0].id;
  const { rows } = await svc.services.db.query('SELECT number, contact_email FROM support_cases WHERE id = $1', [caseId]);
  assert.equal(rows[0].contact_email, null);
  const moved = await svc.api.post(`/v1/admin/support/cases/${caseId}/updates`, { client_id: crypto.randomUUID(), body: 'Looking', status: 'working' }, staffToken);
  assert.equal(moved.status, 201, moved.text);

  const humans = [tenant.email, admin, projectAdmin].map((e) => e.toLowerCase()).sort();
  for (const status of ['received', 'working']) {
    await waitFor(() => humans.every((h) => statusMail(rows[0].number, status).includes(h)), `the ${status} mail to every owner and admin`);
  }
  // Each heard of each change once, and no one else heard.
  for (const status of ['received', 'working']) assert.deepEqual(statusMail(rows[0].number, status).sort(), humans);
  const everyone = relay.received.flatMap((m) => m.to.map((t) => t.toLowerCase()));
  assert.ok(!everyone.includes(plainMember.toLowerCase()) && !everyone.includes(viewer.toLowerCase()));
});

test("with an inbox, the reporting agent's inbox gets the status mail beside the owners", async () => {
  const tenant = await createTenant(svc, { plan: 'developer' });
  const agent = await tenant.enroll();
  const inbox = (await svc.api.post('/v1/inboxes', {}, agent.agentKey)).body;
  const filed = await fileCase(svc, tenant.projectId, agent.agentKey);
  const { rows } = await svc.services.db.query('SELECT number FROM support_cases WHERE id = $1', [filed.body.linked_cases[0].id]);
  await waitFor(async () => {
    const m = await svc.api.get(`/v1/inboxes/${inbox.id}/messages`, agent.agentKey);
    return (m.body.data ?? []).some((x: any) => x.subject.startsWith(`[Support case ${rows[0].number}] received:`));
  }, "the status mail in the agent's inbox");
  await waitFor(() => statusMail(rows[0].number, 'received').includes(tenant.email.toLowerCase()), 'the status mail to the owner');
});

test('each status change is mailed with the status it announced, also when the next change came before its mail went out', async () => {
  // No worker runs here until both changes are made: both mail jobs then find the case already moved on.
  const api = await startTestService({ roles: ['api'], env: { SMTP_URL: relay.url, SUPPORT_STAFF_EMAILS: STAFF } });
  const tenant = await createTenant(api, { plan: 'developer' });
  const agent = await tenant.enroll();
  const filed = await fileCase(api, tenant.projectId, agent.agentKey);
  const caseId = filed.body.linked_cases[0].id;
  const token = await api.services.identity.mint!(STAFF);
  const moved = await api.api.post(`/v1/admin/support/cases/${caseId}/updates`, { client_id: crypto.randomUUID(), body: 'Looking', status: 'working' }, token);
  assert.equal(moved.status, 201, moved.text);
  const { rows } = await api.services.db.query('SELECT number FROM support_cases WHERE id = $1', [caseId]);

  await startTestService({ roles: ['worker'], databaseUrl: api.databaseUrl, env: { SMTP_URL: relay.url, SUPPORT_STAFF_EMAILS: STAFF } });
  // Case numbers start again in this database: its mails are told apart by their one recipient.
  const owner = tenant.email.toLowerCase();
  const heard = (status: string) => statusMail(rows[0].number, status).filter((to) => to === owner).length;
  await waitFor(() => heard('received') >= 1 && heard('working') >= 1, 'the received and the working mail');
  assert.equal(heard('received'), 1);
  assert.equal(heard('working'), 1);
});
