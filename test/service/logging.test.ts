import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from '../../testkit/test.ts';
import { loadConfig } from '../../service/config.ts';
import { createLogger } from '../../service/logger.ts';
import { sendMail } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';

const lines: string[] = [];
const sink = new PassThrough();
let partial = '';
sink.on('data', (chunk: Buffer) => {
  const parts = (partial + chunk.toString('utf8')).split('\n');
  partial = parts.pop()!;
  lines.push(...parts);
});
const svc = await startTestService({ log: createLogger('debug', sink) });

/** The top-level keys of a JSON object text, in order, repeats included (JSON.parse keeps only the last). */
function topLevelKeys(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const isKey = depth === 1 && /^\s*:/.test(text.slice(end + 1, end + 3));
      if (isKey) keys.push(JSON.parse(text.slice(i, end + 1)));
      i = end;
    } else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  return keys;
}

function repeated(line: string): string[] {
  const keys = topLevelKeys(line);
  return keys.filter((k, i) => keys.indexOf(k) !== i);
}

test('the key scanner sees a repeated key that JSON.parse would hide', () => {
  assert.deepEqual(repeated('{"a":1,"component":"x","b":{"component":"y"},"s":"\\"component\\":","component":"z"}'), ['component']);
});

test("a request's log line parses and has each key once", async () => {
  const tenant = await createTenant(svc);
  const { agentKey } = await tenant.enroll();
  const res = await svc.api.get('/v1/auth/me', agentKey, { 'x-request-id': 'log-keys-check' });
  assert.equal(res.status, 200);
  const line = await waitFor(() => lines.find((l) => l.includes('"log-keys-check"') && l.includes('"msg":"request"')), 'the request log line');
  const entry = JSON.parse(line);
  assert.equal(entry.request_id, 'log-keys-check');
  assert.equal(entry.route, '/v1/auth/me');
  assert.equal(entry.status, 200);
  assert.deepEqual(repeated(line), []);
});

test('receiving mail over SMTP logs each key once on every line', async () => {
  const tenant = await createTenant(svc);
  const { agentKey } = await tenant.enroll();
  const inbox = await svc.api.post('/v1/inboxes', { display_name: 'Logs' }, agentKey);
  assert.equal(inbox.status, 201);
  await sendMail(svc, { from: 'dana@example.com', to: inbox.body.address, subject: 'keys', text: 'once each' });
  await waitFor(() => lines.some((l) => l.includes('"msg":"message stored"')), 'the stored message log line');
  const offending = lines.filter((l) => repeated(l).length > 0);
  assert.deepEqual(offending, []);
});

test('LOG_PRETTY=1 asks for lines for people, LOG_PRETTY=0 for JSON; unset, JSON when stdout is not a terminal', () => {
  assert.equal(loadConfig({ LOG_PRETTY: '1' }).logPretty, true);
  assert.equal(loadConfig({ LOG_PRETTY: '0' }).logPretty, false);
  assert.equal(loadConfig({}).logPretty, process.stdout.isTTY === true);
});
