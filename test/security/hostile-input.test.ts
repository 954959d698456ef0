// Hostile input, one class at a time, over every operation the class applies to: bodies nested
// too deep, forged cursors, integers past their columns, empty ids. Each used to reach a 500 on
// some operation: a body 100 000 deep overflowed the recursive NUL walk; an unsigned cursor carried
// a NUL or an unreadable date into its query; `max_mailboxes: 2147483648` overflowed its int4
// column; `category_id: ""` on a rule and `agent_id: ""` on a category broke their constraints.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import type { OperationSpec } from '../../http/openapi.ts';
import { operationsOf } from '../../http/openapi.ts';
import { MAX_JSON_DEPTH } from '../../http/validate.ts';
import { PERMISSIONS } from '../../machines/policy/permissions.ts';
import { schemaTools, type Json } from '../helpers/openapi-values.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({
  roles: ['api'],
  env: { SIGNUP_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '1000000', SUPPORT_STAFF_EMAILS: 'hostile-owner@example.com' },
});
const tenant = await createTenant(svc, { plan: 'pro', email: 'hostile-owner@example.com' });
const prober = await tenant.enroll('hostile-prober');
const issued = await svc.api.post(
  `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}/agents/${prober.agentId}/keys`,
  { permissions: PERMISSIONS.filter((p) => p !== 'signup:verify') },
  tenant.consoleToken,
);
const agentKey: string = issued.body.key;
const { temporary_key: signupKey } = (await svc.api.post('/v1/agent/sign-up', { email: 'hostile@example.com' })).body;
const inbox = await svc.api.post('/v1/inboxes', { display_name: 'Hostile' }, agentKey);
assert.equal(inbox.status, 201, inbox.text);
const webhook = await svc.api.post('/v1/webhooks', { url: 'https://example.com/hook', events: ['message.received'] }, agentKey);
assert.equal(webhook.status, 201, webhook.text);

const api = JSON.parse((await svc.api.get('/openapi.json')).text) as Json;
const operations = operationsOf(api);
const { merged, sample, bodySchemaOf, fieldsOf, withField } = schemaTools(api);

const tokenFor = (op: OperationSpec): string | undefined =>
  op.plane === 'agent' ? (op.permissions.includes('signup:verify') ? signupKey : agentKey) : op.plane === 'console' ? tenant.consoleToken : undefined;

// Path values that pass authentication; the checks here all come before any lookup of the rest.
const pathOf = (op: OperationSpec): string =>
  op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === 'org_id' ? tenant.orgId : name === 'project_id' ? tenant.projectId : name === 'inbox_id' ? inbox.body.id
      : name === 'id' && op.path.includes('/webhooks/') ? webhook.body.id : 'x1');

const label = (op: OperationSpec, what: string) => `${op.method.toUpperCase()} ${op.path} (${what})`;

type Reply = { status: number; body: any; text: string };

/** A 400 whose errors (or, in the legacy envelope, message) name `field`, with `code` when the envelope carries codes. */
function assertNamed(op: OperationSpec, r: Reply, field: string, code: string | null, what: string): void {
  assert.equal(r.status, 400, `${label(op, what)}: ${r.status} ${r.text}`);
  if (op.envelope === 'legacy') {
    assert.equal(r.body.error, 'invalid', label(op, what));
    assert.ok(r.body.message.includes(field), `${label(op, what)}: ${r.text}`);
    return;
  }
  assert.equal(r.body.code, 'bad_request', label(op, what));
  const named = (r.body.errors ?? []).filter((e: any) => e.field === field);
  assert.ok(named.length > 0, `${label(op, what)} names ${field}: ${r.text}`);
  if (code) assert.ok(named.some((e: any) => e.code === code), `${label(op, what)} says ${code}: ${r.text}`);
}

const deepText = (n: number) => '['.repeat(n) + ']'.repeat(n);
const withBody = operations.filter((op) => op.bodyPointer);

test('a body nested past the limit is a 400 too_deep on every operation with a body, 100 000 deep included', async () => {
  assert.ok(withBody.length > 50, `only ${withBody.length} operations take a body`);
  for (const op of withBody) {
    for (const depth of [MAX_JSON_DEPTH + 1, 100_000]) {
      const r = await svc.api.request(op.method.toUpperCase(), pathOf(op), { token: tokenFor(op), raw: deepText(depth) });
      assertNamed(op, r, 'body', 'too_deep', `${depth} deep`);
    }
  }
});

test('nesting up to the limit is read as JSON, brackets inside strings not counted', async () => {
  const op = operations.find((o) => o.method === 'post' && o.path === '/v1/inboxes/{inbox_id}/send')!;
  // Within the limit, the body reaches validation (which refuses an array body), not the depth check.
  const within = await svc.api.request('POST', pathOf(op), { token: agentKey, raw: deepText(MAX_JSON_DEPTH) });
  assert.equal(within.status, 400, within.text);
  assert.notEqual(within.body.errors?.[0]?.code, 'too_deep', within.text);
  const quoted = await svc.api.request('POST', pathOf(op), { token: agentKey, body: { subject: '['.repeat(5000), text: '{"\\"['.repeat(500) } });
  assert.ok(!(quoted.body.errors ?? []).some((e: any) => e.code === 'too_deep'), quoted.text);
});

const paged = operations.filter((op) => op.parameters.some((p) => p.in === 'query' && p.name === 'cursor'));
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

test('a forged cursor is a 400 naming cursor on every paged operation, before any of it reaches a query', async () => {
  assert.ok(paged.length > 15, `only ${paged.length} paged operations`);
  const forged = [
    // What a cursor used to be: unsigned JSON, here with a NUL and with dates PostgreSQL cannot read.
    b64({ created_us: 1, id: 'inb_\u0000' }),
    b64({ created_at: '0', id: 'x' }),
    b64({ t: 'Tue 99', id: 'x' }),
    b64({ seq: 5 }),
    `${b64({ offset: 5 })}.AAAAAAAAAAAAAAAAAAAAAA`,
    'not a cursor',
  ];
  for (const op of paged) {
    const cursorParam = op.parameters.find((p) => p.name === 'cursor')!;
    // A list with its own documented cursor form (a sequence number) checks it by its pattern.
    const values = cursorParam.schema?.pattern ? ['not a cursor', '-1'] : forged;
    const required = op.parameters.filter((p) => p.in === 'query' && p.required && p.name !== 'cursor');
    const rest = required.map((p) => `&${p.name}=${encodeURIComponent(p.name === 'inbox_id' ? inbox.body.id : String(sample(p.schema)))}`).join('');
    for (const value of values) {
      const r = await svc.api.request(op.method.toUpperCase(), `${pathOf(op)}?cursor=${encodeURIComponent(value)}${rest}`, { token: tokenFor(op) });
      assertNamed(op, r, 'cursor', null, `cursor ${JSON.stringify(value).slice(0, 30)}`);
    }
  }
});

test('a cursor is signed: one from a page is taken back, the same position re-spelled or re-signed is not', async () => {
  const more = await svc.api.post('/v1/inboxes', { display_name: 'Second page' }, agentKey);
  assert.equal(more.status, 201, more.text);
  const first = await svc.api.get('/v1/inboxes?limit=1', agentKey);
  assert.equal(first.status, 200, first.text);
  const cursor: string = first.body.next_cursor;
  const second = await svc.api.get(`/v1/inboxes?limit=1&cursor=${encodeURIComponent(cursor)}`, agentKey);
  assert.equal(second.status, 200, second.text);
  assert.notEqual(second.body.data[0].id, first.body.data[0].id);
  const [payload, mac] = cursor.split('.');
  const position = JSON.parse(Buffer.from(payload!, 'base64url').toString());
  for (const forged of [b64(position), `${b64({ ...position, id: `${position.id}\u0000` })}.${mac}`, `${payload}.${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`]) {
    const r = await svc.api.get(`/v1/inboxes?limit=1&cursor=${encodeURIComponent(forged)}`, agentKey);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.errors[0].field, 'cursor');
  }
});

/** Every integer of every request body, with the operation, its dotted path and its schema. */
function bodyIntegers(): Array<{ op: OperationSpec; field: string[]; schema: Json }> {
  const out: Array<{ op: OperationSpec; field: string[]; schema: Json }> = [];
  for (const op of withBody) {
    for (const [field, schema] of fieldsOf(bodySchemaOf(op))) {
      const s = merged(schema);
      if (s.type === 'integer' || s.type === 'number') out.push({ op, field, schema: s });
    }
  }
  return out;
}

const INT4_MAX = 2 ** 31 - 1;

test('every integer a request carries has a maximum its column holds (int4, or an exact JSON number for int64)', () => {
  const unbounded: string[] = [];
  for (const op of operations) {
    for (const p of op.parameters.filter((prm) => prm.in === 'query' || prm.in === 'path')) {
      const s = merged(p.schema);
      // `limit` is clamped to 1-100 by contract, never stored.
      if ((s.type === 'integer' || s.type === 'number') && p.name !== 'limit' && !(s.maximum <= INT4_MAX)) unbounded.push(`${op.operationId} ${p.name}`);
    }
  }
  for (const { op, field, schema } of bodyIntegers()) {
    const bound = schema.format === 'int64' ? Number.MAX_SAFE_INTEGER : INT4_MAX;
    if (!(schema.maximum <= bound)) unbounded.push(`${op.operationId} ${field.join('.')}`);
  }
  assert.deepEqual(unbounded, []);
});

test('an integer past its maximum is a 400 naming the field on every operation that takes one', async () => {
  const fields = bodyIntegers();
  assert.ok(fields.length > 15, `only ${fields.length} integer fields`);
  for (const { op, field, schema } of fields) {
    for (const value of [schema.maximum + 1, 2 ** 63, 1e308]) {
      const body = withField(sample(bodySchemaOf(op)), field, value);
      const r = await svc.api.request(op.method.toUpperCase(), pathOf(op), { token: tokenFor(op), body });
      assertNamed(op, r, field.join('.'), 'too_large', `${field.join('.')}=${value}`);
    }
  }
});

// Ids of records: `*_id`, `id`, and the items of `*_ids`. Not ids in this sense: `last_event_id`
// (a resume position, empty meaning none), `client_id` (an idempotency key, a uuid) and
// `content_id` (a MIME Content-ID).
const NOT_IDS = new Set(['last_event_id', 'client_id', 'content_id']);
const isId = (name: string) => /(^|_)ids?$/.test(name) && !NOT_IDS.has(name);

test('an empty string where an id is expected is a 400 naming the field, in every query and body', async () => {
  let checked = 0;
  for (const op of operations) {
    for (const p of op.parameters.filter((prm) => prm.in === 'query' && isId(prm.name))) {
      const r = await svc.api.request(op.method.toUpperCase(), `${pathOf(op)}?${p.name}=`, { token: tokenFor(op) });
      assertNamed(op, r, p.name, null, `query ${p.name}=''`);
      checked++;
    }
    if (!op.bodyPointer) continue;
    for (const [field, schema] of fieldsOf(bodySchemaOf(op))) {
      const name = field[field.length - 1]!;
      const s = merged(schema);
      if (!isId(name) || (s.type !== 'string' && s.type !== 'array')) continue;
      const body = withField(sample(bodySchemaOf(op)), field, s.type === 'array' ? [''] : '');
      const r = await svc.api.request(op.method.toUpperCase(), pathOf(op), { token: tokenFor(op), body });
      assertNamed(op, r, s.type === 'array' ? `${field.join('.')}.0` : field.join('.'), null, `body ${field.join('.')}=''`);
      checked++;
    }
  }
  assert.ok(checked > 25, `only ${checked} id fields were probed`);
});
