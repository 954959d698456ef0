// The reviewer WebSocket's decision frames get the checks an HTTP decision body gets: depth before
// parsing, NUL in any value (the review id included), integer maximums, empty ids. Each hostile
// frame is answered with a problem frame carrying its `ref`, and the socket keeps answering. A
// NUL in the frame's review_id used to reach the review query (an internal problem, logged as a
// failure), since only the rest of the frame was checked.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import WebSocket from 'ws';
import { MAX_JSON_DEPTH } from '../../http/validate.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const reviewer = await tenant.enroll('ws-hostile');
const issued = await svc.api.post(
  `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}/agents/${reviewer.agentId}/keys`,
  { permissions: ['review:act', 'mailbox:read'] },
  tenant.consoleToken,
);
assert.equal(issued.status, 201, issued.text);

const ws = new WebSocket(`${svc.url.replace(/^http/, 'ws')}/v1/reviewer/ws`, { headers: { authorization: `Bearer ${issued.body.key}` } });
after(() => ws.terminate());
const frames: any[] = [];
ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
await new Promise<void>((resolve, reject) => {
  ws.once('open', () => resolve());
  ws.once('error', reject);
});

let refs = 0;
/** Sends raw text and waits for the frame that answers it (by `ref`, or the next problem when it cannot carry one). */
async function send(text: string, ref: string | null): Promise<any> {
  const before = frames.length;
  ws.send(text);
  return waitFor(() => frames.slice(before).find((f) => (ref === null ? f.type === 'problem' : f.ref === ref)), `the answer to ${ref ?? text.slice(0, 20)}`);
}
const decision = (fields: Record<string, unknown>) => {
  const ref = `r${++refs}`;
  return send(JSON.stringify({ type: 'decision', ref, ...fields }), ref);
};

function assertProblem(frame: any, field: string, code: string | null, what: string): void {
  assert.equal(frame.type, 'problem', `${what}: ${JSON.stringify(frame)}`);
  assert.equal(frame.status, 400, `${what}: ${JSON.stringify(frame)}`);
  assert.equal(frame.body.code, 'bad_request', what);
  assert.ok(frame.body.errors.some((e: any) => e.field === field && (code === null || e.code === code)), `${what} names ${field}: ${JSON.stringify(frame.body)}`);
}

test('a frame nested past the limit is a problem too_deep, 100 000 deep included', async () => {
  for (const depth of [MAX_JSON_DEPTH + 1, 100_000]) {
    const deep = '['.repeat(depth) + ']'.repeat(depth);
    assertProblem(await send(deep, null), 'body', 'too_deep', `${depth} deep`);
  }
  const nested = { type: 'decision', ref: 'deep-field', review_id: 'rr_x', action: 'approve', note: JSON.parse('['.repeat(40) + ']'.repeat(40)) };
  assertProblem(await send(JSON.stringify(nested), null), 'body', 'too_deep', 'a deep field');
});

test('a NUL anywhere in a decision frame, its review_id included, is a problem naming the field', async () => {
  assertProblem(await decision({ review_id: 'rr_\u0000', action: 'approve' }), 'review_id', 'invalid_character', 'review_id');
  assertProblem(await decision({ review_id: 'rr_x', action: 'approve', note: 'a\u0000b' }), 'note', 'invalid_character', 'note');
});

test('an empty, overlong or wrongly typed review_id, and a parent_revision past its maximum, are problems naming the field', async () => {
  assertProblem(await decision({ review_id: '', action: 'approve' }), 'review_id', null, 'empty review_id');
  assertProblem(await decision({ review_id: 'r'.repeat(5000), action: 'approve' }), 'review_id', 'too_long', 'long review_id');
  assertProblem(await decision({ review_id: 7, action: 'approve' }), 'review_id', null, 'numeric review_id');
  for (const value of [2 ** 31, 2 ** 63, 1e308]) {
    assertProblem(await decision({ review_id: 'rr_x', action: 'approve', parent_revision: value }), 'parent_revision', 'too_large', `parent_revision ${value}`);
  }
});

test('after every hostile frame the socket still answers a well-formed decision', async () => {
  const answer = await decision({ review_id: 'rr_nowhere', action: 'approve' });
  assert.equal(answer.type, 'problem');
  assert.equal(answer.status, 404, JSON.stringify(answer));
  assert.equal(ws.readyState, WebSocket.OPEN);
});
