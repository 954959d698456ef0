import assert from 'node:assert/strict';
import { describe, it } from '../../testkit/test.ts';
import { addressOf, checkUsername, generatedLocalPart } from '../../machines/policy/inbox-address.ts';
import { needsBreadthPick, scopeOfKey } from '../../machines/policy/inbox-scope.ts';
import { DEFAULT_PLANS as PLANS, checkQuota, nextUsageReset, parsePlans, planOf } from '../../machines/policy/plans.ts';

describe('plans', () => {
  it('carries the numbers of decisions.md', () => {
    assert.deepEqual(
      Object.values(PLANS).map((p) => [p.tier, p.inbox_limit, p.included_messages_monthly]),
      [
        ['free', 3, 3000],
        ['developer', 10, 10000],
        ['startup', 150, 150000],
        ['enterprise', -1, -1],
      ],
    );
    assert.equal(PLANS.free.daily_message_cap, 100);
    assert.equal(planOf('unknown-tier').tier, 'free');
  });

  it('lays a plans file over the defaults and names a wrong field', () => {
    const plans = parsePlans({ free: { daily_message_cap: 5, name: 'Trial' }, enterprise: { inbox_limit: 1000 } });
    assert.equal(plans.free.daily_message_cap, 5);
    assert.equal(plans.free.name, 'Trial');
    assert.equal(plans.free.inbox_limit, 3);
    assert.equal(plans.enterprise.inbox_limit, 1000);
    assert.equal(PLANS.free.daily_message_cap, 100);
    assert.throws(() => parsePlans({ gold: {} }), /unknown plan tier "gold"/);
    assert.throws(() => parsePlans({ free: { inbox_limit: 2.5 } }), /free\.inbox_limit must be an integer/);
    assert.throws(() => parsePlans({ free: { inbox_limit: -2 } }), /free\.inbox_limit/);
    assert.throws(() => parsePlans({ free: { seats: 2 } }), /free\.seats is not a plan field/);
    assert.throws(() => parsePlans([]), /JSON object/);
  });

  it('checks a quota, -1 being unlimited', () => {
    assert.deepEqual(checkQuota(2, 3), { allowed: true, used: 2, limit: 3, remaining: 1 });
    assert.deepEqual(checkQuota(3, 3), { allowed: false, used: 3, limit: 3, remaining: 0 });
    assert.equal(checkQuota(10_000, -1).allowed, true);
    assert.equal(checkQuota(0, 0).allowed, false);
  });

  it('resets usage at the next calendar month in UTC', () => {
    assert.equal(nextUsageReset(new Date('2026-12-31T23:59:59Z')).toISOString(), '2027-01-01T00:00:00.000Z');
    assert.equal(nextUsageReset(new Date('2026-02-01T00:00:00Z')).toISOString(), '2026-03-01T00:00:00.000Z');
  });
});

describe('inbox addresses', () => {
  it('accepts usernames of letters, digits, dots, dashes and underscores, lower-cased', () => {
    assert.deepEqual(checkUsername(' Support.Bot_2 '), { ok: true, local: 'support.bot_2' });
    for (const bad of ['', '.lead', 'trail-', 'a..b', 'has space', 'ümlaut', 'x'.repeat(65), 'Postmaster']) {
      assert.equal(checkUsername(bad).ok, false, bad);
    }
  });

  it('generates a slug of the display name with the random suffix', () => {
    assert.equal(generatedLocalPart('Zoë’s Support Bot!', 'k2x9q1'), 'zoe-s-support-bot-k2x9q1');
    assert.equal(generatedLocalPart(null, 'k2x9q1'), 'agent-k2x9q1');
    assert.equal(generatedLocalPart('🤖', 'k2x9q1'), 'agent-k2x9q1');
    assert.ok(checkUsername(generatedLocalPart('a'.repeat(300), 'k2x9q1')).ok);
    assert.equal(addressOf('bot', 'Agents.Example'), 'bot@agents.example');
  });
});

describe('inbox scope of a key', () => {
  const base = { org_id: 'org_1', project_id: 'prj_1', agent_id: 'agt_1', inbox_id: null };
  it('narrows a project key to its agent, an inbox key to its inbox', () => {
    assert.deepEqual(scopeOfKey({ ...base, ceiling: 'project' }, null), { org_id: 'org_1', project_id: 'prj_1', agent_id: 'agt_1', inbox_id: null });
    assert.deepEqual(scopeOfKey({ ...base, ceiling: 'inbox', inbox_id: 'inb_1' }, null), { org_id: 'org_1', project_id: 'prj_1', agent_id: 'agt_1', inbox_id: 'inb_1' });
  });

  it('lets an org key reach every agent, narrowed by the picked project', () => {
    const org = { ...base, project_id: null, ceiling: 'org' as const };
    assert.deepEqual(scopeOfKey(org, 'prj_2'), { org_id: 'org_1', project_id: 'prj_2', agent_id: null, inbox_id: null });
    assert.deepEqual(scopeOfKey(org, '*'), { org_id: 'org_1', project_id: null, agent_id: null, inbox_id: null });
    assert.equal(needsBreadthPick(org, null), true);
    assert.equal(needsBreadthPick(org, '*'), false);
    assert.equal(needsBreadthPick({ ...base, ceiling: 'project' }, null), false);
  });
});
