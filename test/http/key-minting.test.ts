// A key or an enrollment token never grants more than its minter's role may do on the console:
// every permission, minted by every role (org-wide and project-scoped), at the project and the org
// ceiling, is refused exactly when the served document says the role may not grant it, and a
// refusal stores nothing. Invitations, which mint roles, never hand out more than the inviter may.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { CONSOLE_OPERATIONS } from '../../machines/policy/console-operations.ts';
import { PERMISSION_GRANTS, ROLES, type Role } from '../../machines/policy/console-roles.ts';
import { DEFAULT_PERMISSIONS, PERMISSIONS } from '../../machines/policy/permissions.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { insertMembership, upsertUser } from '../../storage/tenancy.ts';
import { randomToken } from '../../storage/ids.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const doc = (await svc.api.get('/openapi.json')).body;
const grantedBy: Record<string, string[]> = doc.components.schemas.Permission['x-granted-by'];
const opById = (id: string) =>
  Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((item) => Object.values(item)).find((op) => op?.operationId === id);

type Minter = { name: string; token: string; role: Role; orgWide: boolean };
const minters: Minter[] = [];
for (const role of ROLES) {
  for (const orgWide of [true, false]) {
    const email = `${role}-${orgWide ? 'org' : 'project'}-${randomToken(6)}@example.com`;
    const user = await upsertUser(svc.services.db, `usr_${randomToken(10)}`, email);
    await insertMembership(svc.services.db, { org_id: tenant.orgId, user_id: user.id, project_id: orgWide ? null : tenant.projectId, role });
    minters.push({ name: `${orgWide ? 'org' : 'project'}-${role}`, token: await svc.services.identity.mint!(email), role, orgWide });
  }
}

/** A request's permissions: one named permission, or none named (the defaults). */
const GRANTS: { label: string; list: string[] | undefined }[] = [...PERMISSIONS.map((p) => ({ label: p, list: [p] })), { label: '(defaults)', list: undefined }];

/**
 * What the document says: minting passes the operation's role gate (`x-console-roles`), an org
 * key needs an owner or admin of the whole org, each permission a role its `x-granted-by` lists
 * (counted org-wide for an org key), and `signup:verify` is nobody's to grant (400, as before).
 */
function expected(opId: string, m: Minter, ceiling: 'project' | 'org', list: string[] | undefined): number {
  if (!opById(opId)['x-console-roles'].includes(m.role)) return 403;
  if (list?.includes('signup:verify')) return 400;
  if (ceiling === 'org' && !(m.orgWide && ['owner', 'admin'].includes(m.role))) return 403;
  const held = list ?? DEFAULT_PERMISSIONS;
  return held.every((p) => grantedBy[p]!.includes(m.role)) ? 201 : 403;
}

test('the document lists, for every permission, the roles that may grant it, from the rule beside the role table', () => {
  assert.deepEqual(doc.components.schemas.Permission.enum, [...PERMISSIONS]);
  for (const p of PERMISSIONS) {
    assert.ok(Array.isArray(grantedBy[p]), p);
    assert.match(doc.components.schemas.Permission.description, new RegExp(`\`${p}\``));
    // Where a console operation does the same act, it asks the same role of the caller.
    const g = PERMISSION_GRANTS[p];
    if (g.console) assert.equal(CONSOLE_OPERATIONS[g.console], g.need, `${p} and ${g.console}`);
    else assert.ok(g.why, `${p} says why it needs ${g.need}`);
  }
  // The cases the rule exists for.
  for (const p of ['mailbox:delete', 'mailbox:quota']) assert.deepEqual(grantedBy[p], ['owner', 'admin'], p);
  assert.deepEqual(grantedBy['signup:verify'], []);
  for (const p of DEFAULT_PERMISSIONS) assert.ok(grantedBy[p]!.includes('member'), `a member mints the default ${p}`);
});

test('agent keys: every permission x every role x project and org ceiling is refused exactly when the document says so, and a refusal makes no key', async () => {
  const mismatches: string[] = [];
  const made = new Map<string, { id: string; permissions: string[] }[]>();
  const owner = tenant.consoleToken;
  for (const m of minters) {
    for (const ceiling of ['project', 'org'] as const) {
      // One agent per minter and ceiling, so no agent reaches its 20 working keys.
      const agent = (await svc.api.post(`${A}/agents`, { handle: `a-${m.name}-${ceiling}` }, owner)).body;
      made.set(agent.id, []);
      const results = await Promise.all(
        GRANTS.map(({ list }) => svc.api.post(`${A}/agents/${agent.id}/keys`, { ceiling, ...(list ? { permissions: list } : {}) }, m.token)),
      );
      GRANTS.forEach(({ label, list }, i) => {
        const r = results[i]!;
        const want = expected('adminCreateAgentKey', m, ceiling, list);
        if (r.status !== want) mismatches.push(`${m.name} minting a key at the ${ceiling} ceiling with ${label}: ${r.status}, the document says ${want}`);
        if (r.status === 201) made.get(agent.id)!.push({ id: r.body.id, permissions: r.body.permissions });
        if (r.status === 403 && list && m.role !== 'viewer' && m.role !== 'billing') {
          assert.equal(r.body.error, 'forbidden');
          assert.ok(r.body.message.includes(ceiling === 'org' ? 'org ceiling' : label), r.body.message);
        }
      });
    }
  }
  assert.deepEqual(mismatches, []);
  // What is stored is what was answered 201, each key holding what it asked for.
  for (const [agentId, keys] of made) {
    const listed = (await svc.api.get(`${A}/agents/${agentId}/keys`, owner)).body.items;
    assert.deepEqual(listed.map((k: any) => k.id).sort(), keys.map((k) => k.id).sort(), agentId);
  }
  const memberKey = [...made.values()].flat();
  assert.ok(memberKey.length > 100, `${memberKey.length} keys made`);
});

test('a member may not mint mailbox:delete, mailbox:quota nor an org key; a project-scoped admin may not mint an org key', async () => {
  const member = minters.find((m) => m.name === 'org-member')!;
  const projectAdmin = minters.find((m) => m.name === 'project-admin')!;
  const agent = (await svc.api.post(`${A}/agents`, { handle: 'escalation-target' }, tenant.consoleToken)).body;
  for (const permissions of [['mailbox:delete'], ['mailbox:quota'], ['mailbox:read', 'mailbox:delete']]) {
    const r = await svc.api.post(`${A}/agents/${agent.id}/keys`, { permissions }, member.token);
    assert.equal(r.status, 403, permissions.join());
  }
  assert.equal((await svc.api.post(`${A}/agents/${agent.id}/keys`, { ceiling: 'org' }, member.token)).status, 403);
  assert.equal((await svc.api.post(`${A}/agents/${agent.id}/keys`, { ceiling: 'org' }, projectAdmin.token)).status, 403);
  // The same member is refused the console act the permission stands for.
  assert.equal((await svc.api.del(`${A}/inboxes/inb_nope`, member.token)).status, 403);
  assert.equal((await svc.api.get(`${A}/agents/${agent.id}/keys`, tenant.consoleToken)).body.items.length, 0);
  // The project-scoped admin mints privileged project keys.
  assert.equal((await svc.api.post(`${A}/agents/${agent.id}/keys`, { permissions: ['mailbox:delete'] }, projectAdmin.token)).status, 201);
});

test('enrollment tokens: every scope x every role is refused exactly when the document says so, a refusal makes no token, and a redemption holds the scopes', async () => {
  const mismatches: string[] = [];
  const issued: { id: string; raw: string; scopes: string[] | undefined }[] = [];
  const before = (await svc.api.get(`${A}/enrollment-tokens`, tenant.consoleToken)).body.items.length;
  for (const m of minters) {
    const results = await Promise.all(
      GRANTS.map(({ list }) => svc.api.post(`${A}/enrollment-tokens`, { label: m.name, ...(list ? { scopes: list } : {}) }, m.token)),
    );
    GRANTS.forEach(({ label, list }, i) => {
      const r = results[i]!;
      const want = expected('adminIssueEnrollmentToken', m, 'project', list);
      if (r.status !== want) mismatches.push(`${m.name} issuing a token with ${label}: ${r.status}, the document says ${want}`);
      if (r.status === 201) issued.push({ id: r.body.id, raw: r.body.token, scopes: list });
    });
  }
  assert.deepEqual(mismatches, []);
  const after = (await svc.api.get(`${A}/enrollment-tokens`, tenant.consoleToken)).body.items.length;
  assert.equal(after - before, issued.length);
  // A token only ever brings keys holding what its minter could grant.
  for (const t of issued.filter((x) => x.scopes?.[0] === 'mailbox:delete' || x.scopes === undefined).slice(0, 4)) {
    const r = await svc.api.post('/v1/enroll', { token: t.raw, agent_handle: `e-${randomToken(6)}` });
    assert.equal(r.status, 201);
    const me = (await svc.api.get('/v1/auth/me', r.body.agent_key)).body;
    assert.deepEqual([...me.permissions].sort(), [...(t.scopes ?? DEFAULT_PERMISSIONS)].sort());
  }
});

test('an enrollment token has no ceiling to choose: it always mints project keys', async () => {
  const r = await svc.api.post(`${A}/enrollment-tokens`, { ceiling: 'org' }, tenant.consoleToken);
  assert.equal(r.status, 400);
  assert.match(r.body.message, /ceiling/);
});

test('invitations: every role x every invited role is refused exactly when the inviter may not hand that role out, and a refusal makes no invitation', async () => {
  // An org whose plan has room for every invitation.
  const org = await createTenant(svc, { plan: 'enterprise' });
  const inviters: Minter[] = [];
  for (const role of ROLES) {
    for (const orgWide of [true, false]) {
      const email = `inviter-${role}-${orgWide ? 'org' : 'project'}-${randomToken(6)}@example.com`;
      const user = await upsertUser(svc.services.db, `usr_${randomToken(10)}`, email);
      await insertMembership(svc.services.db, { org_id: org.orgId, user_id: user.id, project_id: orgWide ? null : org.projectId, role });
      inviters.push({ name: `${orgWide ? 'org' : 'project'}-${role}`, token: await svc.services.identity.mint!(email), role, orgWide });
    }
  }
  const admitted: string[] = opById('adminCreateInvitation')['x-console-roles'];
  const mismatches: string[] = [];
  let made = 0;
  for (const m of inviters) {
    // On an org's path a project-only member counts as a viewer; only an owner hands out ownership.
    const counted = m.orgWide ? m.role : 'viewer';
    for (const role of ROLES) {
      const r = await svc.api.post(`/v1/admin/orgs/${org.orgId}/invitations`, { email: `to-${randomToken(6)}@example.com`, role }, m.token);
      const want = admitted.includes(counted) && (role !== 'owner' || counted === 'owner') ? 201 : 403;
      if (r.status !== want) mismatches.push(`${m.name} inviting an ${role}: ${r.status}, expected ${want}`);
      if (r.status === 201) made += 1;
    }
  }
  assert.deepEqual(mismatches, []);
  const listed = (await svc.api.get(`/v1/admin/orgs/${org.orgId}/invitations`, org.consoleToken)).body;
  assert.equal((listed.items ?? listed.data).length, made);
  assert.equal(made, 5 + 4);
});
