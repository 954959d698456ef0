import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import SwaggerParser from '@apidevtools/swagger-parser';
import { allRoutes } from '../../http/routes/index.ts';
import { startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });

test('GET /healthz answers ok', async () => {
  const r = await svc.api.get('/healthz');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { status: 'ok' });
});

test('GET /readyz reports the database, migrations and queue ready', async () => {
  const r = await svc.api.get('/readyz');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { status: 'ready', checks: { database: true, migrations: true, queue: true } });
});

test('the served OpenAPI document is valid OpenAPI 3.0.3, as YAML and as JSON', async () => {
  const json = await svc.api.get('/openapi.json');
  assert.equal(json.status, 200);
  assert.equal(json.body.openapi, '3.0.3');
  assert.equal(json.body.info.version, '0.1.0-pre.6');
  await SwaggerParser.validate(structuredClone(json.body));
  const yaml = await svc.api.get('/openapi.yaml');
  assert.equal(yaml.status, 200);
  assert.match(yaml.headers.get('content-type') ?? '', /yaml/);
  assert.match(yaml.text, /^openapi: 3\.0\.3/m);
});

test('every operation of the document has a route, and every route an operation', async () => {
  const doc = (await svc.api.get('/openapi.json')).body;
  const operations: string[] = [];
  for (const item of Object.values<any>(doc.paths)) {
    for (const m of ['get', 'post', 'put', 'patch', 'delete']) if (item[m]) operations.push(item[m].operationId);
  }
  assert.equal(new Set(operations).size, operations.length, 'operationIds are unique');
  assert.deepEqual(Object.keys(allRoutes(svc.services)).sort(), [...operations].sort());
  // And each is reachable over HTTP: the router never answers "No route" for a documented path.
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const m of ['get', 'post', 'put', 'patch', 'delete']) {
      if (!item[m] || item[m]['x-streaming']) continue;
      const concrete = path.replace(/\{[^}]+\}/g, 'x');
      const r = await svc.api.request(m.toUpperCase(), concrete, { raw: m === 'get' || m === 'delete' ? undefined : '{}' });
      assert.ok(!(r.status === 404 && /No route/.test(r.text)), `${m.toUpperCase()} ${path} is routed`);
    }
  }
});

test('an unknown route is a problem+json 404 echoing X-Request-Id', async () => {
  const r = await svc.api.get('/v1/nothing-here', undefined, { 'x-request-id': 'trace-123' });
  assert.equal(r.status, 404);
  assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(r.body.code, 'not_found');
  assert.equal(r.body.status, 404);
  assert.equal(r.body.request_id, 'trace-123');
  assert.equal(r.headers.get('x-request-id'), 'trace-123');
  assert.match(r.body.type, /\/problems\/not_found$/);
});

test('a request without X-Request-Id gets a generated one in header and body', async () => {
  const r = await svc.api.get('/v1/nothing-here');
  assert.match(r.headers.get('x-request-id') ?? '', /^req_/);
  assert.equal(r.body.request_id, r.headers.get('x-request-id'));
});

test('a wrong method on a known path is 405 problem+json', async () => {
  const r = await svc.api.request('PUT', '/v1/enroll', { body: {} });
  assert.equal(r.status, 405);
  assert.equal(r.body.code, 'bad_request');
});

test('a body that is not JSON is 400 bad_request naming body', async () => {
  const r = await svc.api.request('POST', '/v1/enroll', { raw: '{not json' });
  assert.equal(r.status, 400);
  assert.equal(r.body.code, 'bad_request');
  assert.equal(r.body.errors[0].field, 'body');
});

test('a body that is not declared as JSON is 415', async () => {
  const r = await svc.api.request('POST', '/v1/enroll', { raw: 'token=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(r.status, 415);
  assert.equal(r.body.code, 'bad_request');
});

test('a body over the size limit is refused with 413 before it is read whole', async () => {
  const r = await svc.api.request('POST', '/v1/enroll', { raw: JSON.stringify({ token: 'x'.repeat(2 * 1024 * 1024), agent_handle: 'a' }) });
  assert.equal(r.status, 413);
  assert.equal(r.body.code, 'bad_request');
  assert.equal(r.body.errors[0].field, 'body');
});
