import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from '../../testkit/test.ts';
import { ConfigError, loadConfig } from '../../service/config.ts';
import { scratchDir } from '../../testkit/scratch.ts';

const dir = scratchDir('plans');
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};

describe('PLANS_FILE', () => {
  it('lays the file over the built-in plans', () => {
    const file = write('ok.json', JSON.stringify({ free: { daily_message_cap: 20, inbox_limit: 5 } }));
    const config = loadConfig({ PLANS_FILE: file });
    assert.equal(config.plans.free.daily_message_cap, 20);
    assert.equal(config.plans.free.inbox_limit, 5);
    assert.equal(config.plans.free.included_messages_monthly, 3000);
    assert.equal(config.plans.developer.inbox_limit, 10);
  });

  it('unset, the plans are the built-in ones', () => {
    assert.equal(loadConfig({}).plans.free.daily_message_cap, 100);
  });

  it('stops the start naming the variable and the field when the file is wrong', () => {
    const bad = write('bad.json', JSON.stringify({ free: { inbox_limit: 'many' } }));
    assert.throws(() => loadConfig({ PLANS_FILE: bad }), (e: unknown) => e instanceof ConfigError && /PLANS_FILE .*free\.inbox_limit/.test(e.message));
    const broken = write('broken.json', '{ free: ');
    assert.throws(() => loadConfig({ PLANS_FILE: broken }), (e: unknown) => e instanceof ConfigError && /PLANS_FILE .*JSON/.test(e.message));
    assert.throws(() => loadConfig({ PLANS_FILE: path.join(dir, 'missing.json') }), /PLANS_FILE/);
  });
});
