// U+0000 in any value that reaches PostgreSQL: text and jsonb cannot hold it, and each such
// request used to fail inside the query as a 500 (`invalid byte sequence for encoding "UTF8":
// 0x00`; 103 responses over 56 operations). Every operation of the OpenAPI document is walked
// here, so an operation added later is covered without a line more.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { PERMISSIONS } from '../../machines/policy/permissions.ts';
import { loadApiDocument, type OperationSpec } from '../../http/openapi.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

// The owner is support staff too, so the staff surface reaches its body checks as well.
const OWNER = 'nul-owner@example.com';
const svc = await startTestService({ roles: ['api'], env: { SIGNUP_ENABLED: 'true', SUPPORT_STAFF_EMAILS: OWNER } });
const tenant = await createTenant(svc, { email: OWNER });
const prober = await tenant.enroll('nul-prober');
// A key holding every permission an agent key may hold, so every operation reaches its body checks.
const issued = await svc.api.post(
  `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}/agents/${prober.agentId}/keys`,
  { permissions: PERMISSIONS.filter((p) => p !== 'signup:verify') },
  tenant.consoleToken,
);
const agentKey: string = issued.body.key;
// The verify call takes only a temporary sign-up key (the code mail goes to the outbox).
const { temporary_key: signupKey } = (await svc.api.post('/v1/agent/sign-up', { email: 'nul-prober@example.com' })).body;
const api = loadApiDocument();

const tokenFor = (op: OperationSpec): string | undefined =>
  op.plane === 'agent' ? (op.permissions.includes('signup:verify') ? signupKey : agentKey) : op.plane === 'console' ? tenant.consoleToken : undefined;

// Path values that pass authentication, so the request reaches the body; the rest need not exist.
function pathOf(op: OperationSpec, nulIn?: string): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (name === nulIn) return encodeURIComponent('inb_x\u0000y');
    if (name === 'org_id') return tenant.orgId;
    if (name === 'project_id') return tenant.projectId;
    return 'x1';
  });
}

type Json = Record<string, any>;

function resolve(node: Json | undefined): Json | undefined {
  if (!node?.$ref) return node;
  return String(node.$ref).replace(/^#\//, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc: Json, k) => acc?.[k], api.doc);
}

/** A path to a string inside the schema (`['subject']`, `['to', 0]`), or null when it holds none. */
function stringPath(schema: Json | undefined, depth = 0): Array<string | number> | null {
  const s = resolve(schema);
  if (!s || depth > 6) return null;
  if (s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'))) return [];
  for (const sub of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
    const found = stringPath(sub, depth + 1);
    if (found) return found;
  }
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    const found = stringPath(prop as Json, depth + 1);
    if (found) return [key, ...found];
  }
  if (s.type === 'array' && s.items) {
    const found = stringPath(s.items, depth + 1);
    if (found) return [0, ...found];
  }
  return null;
}

function bodyWith(path: Array<string | number>, value: string): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return typeof head === 'number' ? [bodyWith(rest, value)] : { [head!]: bodyWith(rest, value) };
}

/** A 400 naming the field: problem+json `bad_request`, or the legacy envelope on the operations that still use it. */
function assertNamed(op: OperationSpec, r: { status: number; body: any; text: string }, field: string, where: string): void {
  const label = `${op.method.toUpperCase()} ${op.path} (${where} ${field})`;
  assert.equal(r.status, 400, `${label}: ${r.status} ${r.text}`);
  if (op.envelope === 'legacy') {
    assert.equal(r.body.error, 'invalid', label);
    assert.match(r.body.message, new RegExp(`\\b${field.replace(/\./g, '\\.')}\\b`), label);
  } else {
    assert.equal(r.body.code, 'bad_request', label);
    assert.equal(r.body.errors?.[0]?.field, field, label);
    assert.equal(r.body.errors?.[0]?.code, 'invalid_character', label);
  }
}

test('a NUL in any path parameter is a 400 naming the parameter, on every operation', async () => {
  let checked = 0;
  for (const op of api.operations) {
    for (const p of op.parameters.filter((prm) => prm.in === 'path')) {
      const r = await svc.api.request(op.method.toUpperCase(), pathOf(op, p.name), { token: tokenFor(op) });
      assertNamed(op, r, p.name, 'path');
      checked++;
    }
  }
  assert.ok(checked > 50, `only ${checked} path parameters were probed`);
});

test('a NUL in any query parameter is a 400 naming the parameter, on every operation', async () => {
  let checked = 0;
  for (const op of api.operations) {
    for (const p of op.parameters.filter((prm) => prm.in === 'query')) {
      const r = await svc.api.request(op.method.toUpperCase(), `${pathOf(op)}?${p.name}=a%00b`, { token: tokenFor(op) });
      assertNamed(op, r, p.name, 'query');
      checked++;
    }
  }
  assert.ok(checked > 30, `only ${checked} query parameters were probed`);
});

test('a NUL in a string of any JSON body is a 400 naming the field, on every operation with a body', async () => {
  let checked = 0;
  for (const op of api.operations.filter((o) => o.bodyPointer)) {
    const bodySchema = op.bodyPointer!.replace(/^#\//, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((acc: Json, k) => acc?.[k], api.doc);
    const path = stringPath(bodySchema) ?? ['note'];
    const r = await svc.api.request(op.method.toUpperCase(), pathOf(op), { token: tokenFor(op), body: bodyWith(path, 'a\u0000b') });
    assertNamed(op, r, path.join('.'), 'body');
    checked++;
  }
  assert.ok(checked > 25, `only ${checked} bodies were probed`);
});

test('a NUL in a JSON key, or deep inside a body, is refused before anything is stored', async () => {
  const inbox = await svc.api.post('/v1/inboxes', { display_name: 'Nul' }, agentKey);
  assert.equal(inbox.status, 201, inbox.text);
  const deep = await svc.api.post(`/v1/inboxes/${inbox.body.id}/send`, {
    to: ['someone@example.com'],
    subject: 'fine',
    text: 'fine',
    intent: { summary: 'A probe of hostile input', meta: { nested: ['ok', 'bad\u0000'] } },
  }, agentKey);
  assert.equal(deep.status, 400, deep.text);
  assert.equal(deep.body.errors[0].field, 'intent.meta.nested.1');
  const key = await svc.api.post(`/v1/inboxes/${inbox.body.id}/send`, {
    to: ['someone@example.com'],
    subject: 'fine',
    text: 'fine',
    intent: { summary: 'A probe of hostile input', meta: { 'k\u0000': 1 } },
  }, agentKey);
  assert.equal(key.status, 400, key.text);
  assert.equal(key.body.errors[0].field, 'intent.meta');
  const { rows } = await svc.services.db.query('SELECT count(*)::int AS n FROM reviews WHERE org_id = $1', [tenant.orgId]);
  assert.equal(rows[0].n, 0, 'nothing was queued');
});
