// The settings of the event channels, and the encryption that keeps webhook secrets at rest.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from '../../testkit/test.ts';
import { ConfigError, loadConfig } from '../../service/config.ts';
import { encryptionKey, open, seal } from '../../service/encryption.ts';
import { scratchDir } from '../../testkit/scratch.ts';

test('defaults follow the published numbers: retries 10 s to 12 h, 10 s timeout, 20 failures, 15 s heartbeat', () => {
  const c = loadConfig({});
  assert.deepEqual(c.webhookRetrySchedule, [10, 60, 300, 1800, 7200, 21600, 43200]);
  assert.equal(c.webhookTimeoutSeconds, 10);
  assert.equal(c.webhookDeactivateAfter, 20);
  assert.equal(c.sseHeartbeatSeconds, 15);
  assert.equal(c.encryptionKey, null);
});

test('each setting is validated, and a bad value names its variable', () => {
  const key = crypto.randomBytes(32).toString('base64');
  assert.deepEqual(loadConfig({ ENCRYPTION_KEY: key }).encryptionKey, Buffer.from(key, 'base64'));
  assert.deepEqual(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0.5, 2,30' }).webhookRetrySchedule, [0.5, 2, 30]);
  const refused: Array<[Record<string, string>, RegExp]> = [
    [{ ENCRYPTION_KEY: crypto.randomBytes(16).toString('base64') }, /^ENCRYPTION_KEY must be the base64 encoding of 32/],
    [{ ENCRYPTION_KEY: 'not base64 at all!' }, /^ENCRYPTION_KEY/],
    [{ WEBHOOK_RETRY_SCHEDULE: '10,,60' }, /^WEBHOOK_RETRY_SCHEDULE/],
    [{ WEBHOOK_RETRY_SCHEDULE: '10,-1' }, /^WEBHOOK_RETRY_SCHEDULE/],
    [{ WEBHOOK_TIMEOUT_SECONDS: '0' }, /^WEBHOOK_TIMEOUT_SECONDS/],
    [{ WEBHOOK_TIMEOUT_SECONDS: '60' }, /^WEBHOOK_TIMEOUT_SECONDS must be at most 45/],
    [{ WEBHOOK_DEACTIVATE_AFTER: '2.5' }, /^WEBHOOK_DEACTIVATE_AFTER/],
    [{ SSE_HEARTBEAT_SECONDS: 'often' }, /^SSE_HEARTBEAT_SECONDS/],
  ];
  for (const [env, message] of refused) assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError && message.test(e.message), JSON.stringify(env));
});

test('without ENCRYPTION_KEY a key is made once in DATA_DIR, owner-readable only, and reused', () => {
  const dataDir = scratchDir('key');
  const key = encryptionKey({ encryptionKey: null, dataDir });
  const file = path.join(dataDir, 'encryption.key');
  assert.equal(key.length, 32);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'), key);
  assert.deepEqual(encryptionKey({ encryptionKey: null, dataDir }), key);
});

test('a sealed secret opens only with its key and only unaltered', () => {
  const key = crypto.randomBytes(32);
  const sealed = seal(key, 'whsec_secret');
  assert.equal(sealed.includes(Buffer.from('whsec_secret')), false);
  assert.equal(open(key, sealed), 'whsec_secret');
  assert.notDeepEqual(seal(key, 'whsec_secret'), sealed, 'a fresh IV each time');
  assert.throws(() => open(crypto.randomBytes(32), sealed));
  const altered = Buffer.from(sealed);
  altered[altered.length - 1]! ^= 1;
  assert.throws(() => open(key, altered));
});
