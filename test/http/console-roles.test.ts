// Every console-plane operation, called by every kind of caller, answers 403 exactly when the
// served OpenAPI document says the caller's role does not meet the operation's need. The calls
// carry a body that fails validation (`[]`) and ids that do not exist, so a caller the document
// admits gets past the role gate and stops at 400 or 404 without changing anything.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { CONSOLE_OPERATIONS } from '../../machines/policy/console-operations.ts';
import { ROLES, type Role } from '../../machines/policy/console-roles.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { insertMembership, upsertUser } from '../../storage/tenancy.ts';
import { randomToken } from '../../storage/ids.ts';

const STAFF = 'staff@example.com';
const svc = await startTestService({ roles: ['api'], env: { SUPPORT_STAFF_EMAILS: STAFF } });
const tenant = await createTenant(svc);
const other = (await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/projects`, { name: 'Other' }, tenant.consoleToken)).body;

/** A caller: a membership of the whole org or of one project, none at all, or support staff. */
type Caller = { name: string; token: string; role: Role | null; scope: 'org' | 'project' | 'other-project' | null; staff: boolean };

async function caller(name: string, membership: { role: Role; project_id: string | null } | null, email = `${name}-${randomToken(6)}@example.com`): Promise<Caller> {
  const user = await upsertUser(svc.services.db, `usr_${randomToken(10)}`, email);
  if (membership) await insertMembership(svc.services.db, { org_id: tenant.orgId, user_id: user.id, ...membership });
  const scope = !membership ? null : membership.project_id === null ? 'org' : membership.project_id === tenant.projectId ? 'project' : 'other-project';
  return { name, token: await svc.services.identity.mint!(email), role: membership?.role ?? null, scope, staff: email === STAFF };
}

const callers: Caller[] = [];
for (const role of ROLES) {
  callers.push(await caller(`org-${role}`, { role, project_id: null }));
  callers.push(await caller(`project-${role}`, { role, project_id: tenant.projectId }));
}
callers.push(await caller('admin-of-another-project', { role: 'admin', project_id: other.id }));
callers.push(await caller('outsider', null));
callers.push(await caller('staff', null, STAFF));

const doc = (await svc.api.get('/openapi.json')).body;
type Op = { method: string; path: string; op: Record<string, any> };
const consoleOps: Op[] = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
  ['get', 'post', 'put', 'patch', 'delete']
    .filter((m) => item[m] && (item[m].security ?? []).some((s: object) => 'ClerkSession' in s))
    .map((method) => ({ method, path, op: item[method] })),
);

/**
 * What the document says of this caller on this operation: `allowed`, `forbidden` (403) or
 * `hidden` (404: no membership reaching the org or project of the path). The role that counts is
 * the one the API description defines: the stronger of org-wide and project membership on a
 * project's path, the org-wide one on an org's path (a project-only member counts as viewer),
 * the org-wide one alone for `org_admin`.
 */
function verdict(o: Op, c: Caller): 'allowed' | 'forbidden' | 'hidden' {
  const need: string = o.op['x-console-role'];
  const admitted: string[] = o.op['x-console-roles'];
  if (need === 'staff') return c.staff ? 'allowed' : 'forbidden';
  const onOrg = o.path.includes('{org_id}');
  const onProject = o.path.includes('{project_id}');
  if (!onOrg) return need === 'any' ? 'allowed' : 'forbidden';
  if (c.role === null) return 'hidden';
  if (onProject && c.scope === 'other-project') return 'hidden';
  if (need === 'any') return 'allowed';
  let counted: string | null = c.role;
  if (need === 'org_admin') counted = c.scope === 'org' ? c.role : null;
  else if (!onProject && c.scope !== 'org') counted = 'viewer';
  return counted !== null && admitted.includes(counted) ? 'allowed' : 'forbidden';
}

const FAKE: Record<string, string> = { domain: 'nope.example', kind: 'review' };

function urlOf(o: Op): string {
  return o.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    if (name === 'org_id') return tenant.orgId;
    if (name === 'project_id') return tenant.projectId;
    return FAKE[name] ?? `nope_${name}`;
  });
}

async function call(o: Op, c: Caller): Promise<number> {
  const headers: Record<string, string> = { authorization: `Bearer ${c.token}` };
  let body: string | undefined;
  if (o.op.requestBody) {
    headers['content-type'] = 'application/json';
    body = '[]';
  }
  const abort = new AbortController();
  const res = await fetch(svc.url + urlOf(o), { method: o.method.toUpperCase(), headers, body, signal: abort.signal });
  // A stream the caller may open answers 200 and stays open: its headers are the answer.
  if (o.op['x-streaming']) abort.abort();
  else await res.arrayBuffer();
  return res.status;
}

test('the document states a need and the roles admitted for every console operation, from the one table', () => {
  assert.ok(consoleOps.length >= 90, `${consoleOps.length} console operations`);
  for (const o of consoleOps) {
    assert.equal(o.op['x-console-role'], CONSOLE_OPERATIONS[o.op.operationId], o.op.operationId);
    assert.ok(Array.isArray(o.op['x-console-roles']), o.op.operationId);
  }
  const documented = new Set(consoleOps.map((o) => o.op.operationId));
  assert.deepEqual(Object.keys(CONSOLE_OPERATIONS).filter((id) => !documented.has(id)), [], 'table rows without a console operation');
});

test('org-layer rules bind every project, so writing, revising, activating, retiring and undoing them needs admin', () => {
  const need = (id: string) => consoleOps.find((o) => o.op.operationId === id)!.op;
  for (const id of ['adminCreateOrgRule', 'adminReviseOrgRule', 'adminActivateOrgRule', 'adminRetireOrgRule', 'adminUndoOrgRuleChange']) {
    assert.equal(need(id)['x-console-role'], 'admin', id);
    assert.deepEqual(need(id)['x-console-roles'], ['owner', 'admin'], id);
  }
  assert.equal(need('adminListOrgRules')['x-console-role'], 'read');
});

test('every console operation, called by every role, is 403 exactly when the document says the role falls short', async () => {
  const mismatches: string[] = [];
  let forbidden = 0;
  for (const o of consoleOps) {
    const statuses = await Promise.all(callers.map((c) => call(o, c)));
    callers.forEach((c, i) => {
      const want = verdict(o, c);
      const got = statuses[i]!;
      if (want === 'forbidden') forbidden += 1;
      const ok = want === 'forbidden' ? got === 403 : want === 'hidden' ? got === 404 : got !== 403 && got !== 401 && got < 500;
      if (!ok) mismatches.push(`${o.op.operationId} as ${c.name}: ${got}, the document says ${want} (${o.op['x-console-role']})`);
    });
  }
  assert.deepEqual(mismatches, []);
  // The walk did exercise refusals, not only admissions.
  assert.ok(forbidden > 300, `${forbidden} refusals`);
});

test('a member may not write an org-level hard rule nor undo an org rule change; an admin may, and the refusal stores nothing', async () => {
  const member = callers.find((c) => c.name === 'org-member')!;
  const admin = callers.find((c) => c.name === 'org-admin')!;
  const rules = `/v1/admin/orgs/${tenant.orgId}/rules`;
  const hard = { rule_text: 'Never promise refunds.', kind: 'hard' };
  const refused = await svc.api.post(rules, hard, member.token);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.code, 'forbidden_scope');
  assert.equal((await svc.api.get(rules, member.token)).body.data.length, 0);
  const made = await svc.api.post(rules, hard, admin.token);
  assert.equal(made.status, 201);
  const audit = (await svc.api.get(`${rules}/audit`, member.token)).body.data;
  assert.equal(audit.length, 1);
  const undo = await svc.api.post(`${rules}/audit/${audit[0].id}/undo`, undefined, member.token);
  assert.equal(undo.status, 403);
  assert.equal((await svc.api.get(`${rules}/audit`, member.token)).body.data[0].undone_at, null);
  assert.equal((await svc.api.get(rules, member.token)).body.data[0].status, 'active');
  // Writing rules of the member's own project stays open to members.
  const project = await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}/rules`, hard, member.token);
  assert.equal(project.status, 201);
});
