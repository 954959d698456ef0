// A bounded fuzz of the whole API: for every operation of the served OpenAPI document, a fixed set
// of hostile values in each path and query parameter and each body field (NUL, deep nesting, huge
// and negative numbers, wrong types, forged cursors, empty ids, long strings), sent with a valid
// credential of the operation's plane so the values get past authentication. No answer may be a
// 5xx, and the service must still answer afterwards. What this found when it was written, each a
// 500: an enrollment token's max_mailboxes and daily_send_limit past int4 reaching their columns,
// and `""` as a rule's category_id or a category's agent_id breaking their table constraints. It
// runs in about 30 s on two busy cores (over 2 500 requests, four at a time).
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { PERMISSIONS } from '../../machines/policy/permissions.ts';
import type { OperationSpec } from '../../http/openapi.ts';
import { schemaTools, type Json } from '../helpers/openapi-values.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({
  roles: ['api'],
  // Past the rate limit every request would be a 429 before its values were read.
  env: { SIGNUP_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '1000000', ENROLL_RATE_LIMIT_PER_MINUTE: '1000000', SUPPORT_STAFF_EMAILS: 'staff@example.com' },
});
const tenant = await createTenant(svc, { plan: 'pro' });
const prober = await tenant.enroll('fuzz-prober');
const issued = await svc.api.post(
  `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}/agents/${prober.agentId}/keys`,
  { permissions: PERMISSIONS.filter((p) => p !== 'signup:verify') },
  tenant.consoleToken,
);
assert.equal(issued.status, 201, issued.text);
const agentKey: string = issued.body.key;
// The agent the console operations on an agent act on: disabling it must not lock the prober out.
const target = await tenant.enroll('fuzz-target');
const { temporary_key: signupKey } = (await svc.api.post('/v1/agent/sign-up', { email: 'fuzz@example.com' })).body;

// Real records for the ids in paths, so hostile bodies and queries reach the handlers past the lookups.
const inbox = await svc.api.post('/v1/inboxes', { display_name: 'Fuzz' }, agentKey);
assert.equal(inbox.status, 201, inbox.text);
const webhook = await svc.api.post('/v1/webhooks', { url: 'https://example.com/hook', events: ['message.received'] }, agentKey);
const sent = await svc.api.post(`/v1/inboxes/${inbox.body.id}/send`, {
  to: ['someone@example.com'], subject: 'Fuzz', text: 'A draft to review', intent: { summary: 'A draft the fuzz test reviews' },
}, agentKey);
const reviewId: string = sent.body?.review_id ?? sent.body?.id ?? 'rr_missing';

const api = JSON.parse((await svc.api.get('/openapi.json')).text) as Record<string, any>;
const { operationsOf } = await import('../../http/openapi.ts');
const operations = operationsOf(api);
const { merged, sample, bodySchemaOf, fieldsOf, withField } = schemaTools(api);

const REAL: Record<string, string> = {
  org_id: tenant.orgId,
  project_id: tenant.projectId,
  inbox_id: inbox.body.id,
  agent_id: target.agentId,
  review_id: reviewId,
};
const realId = (op: OperationSpec, name: string): string => {
  if (name === 'id' && op.path.includes('/webhooks/')) return webhook.body?.id ?? 'wh_missing';
  return REAL[name] ?? 'x1';
};

const tokenFor = (op: OperationSpec): string | undefined =>
  op.plane === 'agent' ? (op.permissions.includes('signup:verify') ? signupKey : agentKey) : op.plane === 'console' ? tenant.consoleToken : undefined;

const deep = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = [v];
  return v;
};
// A cursor is passed back verbatim: these are forged, truncated or of another list.
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const CURSORS = [
  'not-a-cursor', '%%%', b64({ created_us: 1, id: 'a\u0000b' }), b64({ seq: 1e300 }), b64({ t: 'garbage', id: 'x' }),
  b64({ created_at: 'not a date', id: 'x' }), b64({ offset: -5 }), `${b64({ offset: 5 })}.AAAAAAAAAAAAAAAAAAAAAA`, 'x'.repeat(2048),
];

const LONG = 'x'.repeat(5000);
const typeOf = (schema: Json | undefined): string => {
  const s = merged(schema);
  const t = Array.isArray(s.type) ? s.type[0] : s.type;
  return t ?? (s.properties ? 'object' : s.items ? 'array' : 'any');
};
/**
 * Hostile JSON values for a body field of the schema's type: empty, NUL, long and wrong-typed for
 * strings; negative, past int4, past int64, fractional and wrong-typed for numbers; wrong shapes
 * for the rest.
 */
function bodyValues(schema: Json | undefined): unknown[] {
  switch (typeOf(schema)) {
    case 'string': return ['', 'a\u0000b', LONG, 2 ** 31];
    case 'integer': case 'number': return [-1, 2 ** 31, 2 ** 63, 1.5, ''];
    case 'boolean': return ['', 2 ** 63, null];
    case 'array': return ['', [''], ['a\u0000'], [LONG], [null], deep(40)];
    case 'object': return ['', [], deep(40), { '': null }];
    default: return ['', 'a\u0000b', LONG, 2 ** 63, null, deep(40)];
  }
}
/** Hostile query text of the parameter's type (encoded when sent). */
function queryValues(schema: Json | undefined): string[] {
  switch (typeOf(schema)) {
    case 'integer': case 'number': return ['-1', '2147483648', '9223372036854775808', '1e308', '1.5', 'x'];
    case 'boolean': return ['', '2', 'x'];
    default: return ['', LONG, '2147483648', '\ud83d\ude00'];
  }
}
/** Hostile path segments: an empty one would be another route. */
const PATH_VALUES = [LONG, '2147483648', '\ud83d\ude00 %'];

type Probe = { op: OperationSpec; where: string; path: string; query: string; body?: unknown; raw?: string };

function pathOf(op: OperationSpec, hostile?: { name: string; value: string }): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(hostile && name === hostile.name ? hostile.value : realId(op, name)));
}


function probesOf(op: OperationSpec): Probe[] {
  const probes: Probe[] = [];
  const schema = bodySchemaOf(op);
  const base = schema ? sample(schema) : undefined;
  const query = op.parameters.filter((p) => p.in === 'query');
  // Every required query parameter gets a plausible value, so the hostile one is the only fault.
  const queryWith = (hostile?: { name: string; value: string }) =>
    query
      .filter((p) => p.name === hostile?.name || p.required)
      .map((p) => `${p.name}=${encodeURIComponent(hostile && p.name === hostile.name ? hostile.value : String(sample(p.schema)))}`)
      .join('&');
  for (const p of op.parameters.filter((prm) => prm.in === 'path')) {
    for (const value of PATH_VALUES) probes.push({ op, where: `path ${p.name}=${value.slice(0, 20)}`, path: pathOf(op, { name: p.name, value }), query: queryWith(), body: base });
  }
  for (const p of query) {
    const values = p.name === 'cursor' ? [...queryValues(p.schema), ...CURSORS] : queryValues(p.schema);
    for (const value of values) probes.push({ op, where: `query ${p.name}=${value.slice(0, 20)}`, path: pathOf(op), query: queryWith({ name: p.name, value }), body: base });
  }
  if (schema) {
    for (const [field, fieldSchema] of fieldsOf(schema)) {
      for (const value of bodyValues(fieldSchema)) {
        probes.push({ op, where: `body ${field.join('.')}=${JSON.stringify(value)?.slice(0, 20)}`, path: pathOf(op), query: queryWith(), body: withField(base, field, value) });
      }
    }
    for (const whole of [[], 'text', null, deep(40)]) probes.push({ op, where: `body ${JSON.stringify(whole)?.slice(0, 20)}`, path: pathOf(op), query: queryWith(), body: whole });
    probes.push({ op, where: 'body nested 100 000 deep', path: pathOf(op), query: queryWith(), raw: '['.repeat(100_000) + ']'.repeat(100_000) });
  }
  return probes;
}

type Outcome = { probe: Probe; status: number; text: string };

// Long-lived answers (event streams, long polls) are read up to their status line and then let go.
const STREAM_PATIENCE_MS = 500;

async function run(probe: Probe): Promise<Outcome> {
  const { op } = probe;
  const headers: Record<string, string> = {};
  const token = tokenFor(op);
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (probe.raw !== undefined) body = probe.raw;
  else if (probe.body !== undefined && op.bodyPointer) body = JSON.stringify(probe.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const abort = new AbortController();
  const timer = op.streaming ? setTimeout(() => abort.abort(), STREAM_PATIENCE_MS) : null;
  try {
    const url = `${svc.url}${probe.path}${probe.query ? `?${probe.query}` : ''}`;
    const res = await fetch(url, { method: op.method.toUpperCase(), headers, body, signal: abort.signal });
    if (op.streaming && res.status < 300) {
      abort.abort();
      return { probe, status: res.status, text: '' };
    }
    return { probe, status: res.status, text: (await res.text()).slice(0, 400) };
  } catch (err) {
    if (abort.signal.aborted) return { probe, status: 0, text: 'still waiting (a long poll)' };
    return { probe, status: -1, text: String(err) };
  } finally {
    if (timer) clearTimeout(timer);
  }
}

// Deleting and revoking last, so the records the other probes read are still there.
const ORDER = { get: 0, post: 1, put: 1, patch: 1, delete: 2 } as const;

test('no hostile value in any parameter or body field of any operation gets a 5xx, and the service still answers', async () => {
  const probes = operations
    .filter((op) => op.operationId !== 'getMetrics')
    .sort((a, b) => ORDER[a.method] - ORDER[b.method])
    .flatMap(probesOf);
  assert.ok(probes.length > 2500, `only ${probes.length} probes`);
  const failures: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const probe = probes[next++]!;
      const out = await run(probe);
      // `not_configured` is this deployment's permanent answer where a capability is absent (a
      // domain registrar), given to any valid request: not a failure of the request's values.
      const absent = out.status === 503 && out.text.includes('"code":"not_configured"');
      if ((out.status >= 500 && !absent) || out.status === -1) failures.push(out);
    }
  };
  // A few at a time: the point is what each value does, not load.
  await Promise.all(Array.from({ length: 4 }, worker));
  const shown = failures.slice(0, 30).map((f) => `${f.status} ${f.probe.op.method.toUpperCase()} ${f.probe.op.path} [${f.probe.where}] ${f.text}`);
  assert.equal(failures.length, 0, `${failures.length} of ${probes.length} probes failed:\n${shown.join('\n')}`);

  const health = await svc.api.get('/healthz');
  assert.equal(health.status, 200, health.text);
  const still = await svc.api.get(`/v1/inboxes/${inbox.body.id}`, agentKey);
  assert.ok(still.status === 200 || still.status === 404, still.text);
  const me = await svc.api.get(`/v1/admin/orgs/${tenant.orgId}/members`, tenant.consoleToken);
  assert.equal(me.status, 200, me.text);
});
