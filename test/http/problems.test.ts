// Problem type pages: every `type` URI the API puts in a problem+json answers with the code's page.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { ERROR_CODES } from '../../machines/problems.ts';
import { startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const codes = Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[];

test('every code has a page that answers 200 HTML naming the code, its title and its status', async () => {
  for (const code of codes) {
    const r = await svc.api.get(`/problems/${code}`);
    assert.equal(r.status, 200, code);
    assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(r.text, new RegExp(`<h1><code>${code}</code></h1>`), code);
    assert.ok(r.text.includes(`HTTP status <strong>${ERROR_CODES[code].status}</strong>`), `${code} names its status`);
    assert.ok(r.text.includes('What to do'), code);
    assert.match(r.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  }
});

test('a page answers JSON with the meaning and action when the client asks for JSON', async () => {
  const r = await svc.api.get('/problems/intent_required', undefined, { accept: 'application/json' });
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(r.body, {
    type: `${svc.config.publicBaseUrl}/problems/intent_required`,
    code: 'intent_required',
    title: ERROR_CODES.intent_required.title,
    status: 422,
    meaning: ERROR_CODES.intent_required.meaning,
    action: ERROR_CODES.intent_required.action,
  });
  assert.match(r.headers.get('vary') ?? '', /accept/i);
});

test('every code has a meaning and an action written out', () => {
  for (const code of codes) {
    assert.ok(ERROR_CODES[code].meaning.length > 20, `${code} meaning`);
    assert.ok(ERROR_CODES[code].action.length > 10, `${code} action`);
  }
});

test('/problems lists every code, as a page and as JSON', async () => {
  const page = await svc.api.get('/problems');
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  for (const code of codes) assert.ok(page.text.includes(`href="problems/${code}"`), `${code} is linked`);
  const json = await svc.api.get('/problems', undefined, { accept: 'application/json' });
  assert.equal(json.status, 200);
  assert.deepEqual(json.body.data.map((p: { code: string }) => p.code), codes);
  assert.deepEqual(json.body.data.map((p: { status: number }) => p.status), codes.map((c) => ERROR_CODES[c].status));
});

test('an unknown code is a 404 problem', async () => {
  const r = await svc.api.get('/problems/no_such_code');
  assert.equal(r.status, 404);
  assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(r.body.code, 'not_found');
  assert.match(r.body.detail, /no_such_code/);
});

test('the type of a real error response resolves to its page', async () => {
  const err = await svc.api.get('/v1/auth/me'); // no credential
  assert.equal(err.status, 401);
  assert.equal(err.body.type, `${svc.config.publicBaseUrl}/problems/unauthorized`);
  // The test service listens on a port chosen at start, so the base URL's port is not the bound
  // one; the path is what this service serves.
  const page = await svc.api.get(new URL(err.body.type).pathname);
  assert.equal(page.status, 200);
  assert.match(page.text, /<h1><code>unauthorized<\/code><\/h1>/);
  assert.ok(page.text.includes('HTTP status <strong>401</strong>'));
});

test('backticks in the registry texts render as code on the page', async () => {
  const r = await svc.api.get('/problems/intent_required');
  assert.ok(r.text.includes('<code>intent.summary</code>'));
  assert.ok(!r.text.includes('`'));
});
