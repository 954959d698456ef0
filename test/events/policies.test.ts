import assert from 'node:assert/strict';
import { describe, test } from '../../testkit/test.ts';
import { canSeeEvent, parseTypeFilter } from '../../machines/policy/event-scope.ts';
import { afterAttempt, isDelivered } from '../../machines/policy/webhook-retry.ts';
import { blockedAddressReason, embeddedIPv4, resolvedProblem, urlProblem } from '../../machines/policy/webhook-target.ts';
import { postWebhook } from '../../actors/webhook-transport.ts';

describe('webhook target addresses', () => {
  const blocked: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.100.100.200', 'shared (CGNAT)'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['fc12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local (cloud metadata)'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local (cloud metadata)'],
    ['::127.0.0.1', 'loopback'],
    // IPv4-translated (RFC 6145), 6to4 (RFC 3056) and Teredo (RFC 4380, client address inverted)
    // forms of 127.0.0.1 once passed as public.
    ['::ffff:0:7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
    ['2002:a9fe:a9fe::1', 'link-local (cloud metadata)'],
    ['2002:c0a8:101::', 'private'],
    ['64:ff9b:1::a00:1', 'local NAT64'],
    ['fec0::1', 'site-local'],
    ['2001:db8::1', 'reserved'],
  ];
  for (const [ip, reason] of blocked) {
    test(`${ip} is refused as ${reason}`, () => assert.equal(blockedAddressReason(ip), reason));
  }

  for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1']) {
    test(`${ip} is a public address`, () => assert.equal(blockedAddressReason(ip), null));
  }

  test('the IPv4 address inside mapped, compatible and NAT64 forms is found', () => {
    assert.equal(embeddedIPv4('::ffff:192.168.0.1'), '192.168.0.1');
    assert.equal(embeddedIPv4('::ffff:c0a8:1'), '192.168.0.1');
    assert.equal(embeddedIPv4('64:ff9b::808:808'), '8.8.8.8');
    assert.equal(embeddedIPv4('::ffff:0:7f00:1'), '127.0.0.1');
    assert.equal(embeddedIPv4('2002:7f00:1::'), '127.0.0.1');
    assert.equal(embeddedIPv4('2001:0:4136:e378:8000:63bf:80ff:fffe'), '127.0.0.1');
    assert.equal(embeddedIPv4('2001:db8::1'), null);
    assert.equal(embeddedIPv4('8.8.8.8'), null);
  });
});

describe('webhook target URLs', () => {
  test('only http and https are accepted', () => {
    assert.match(urlProblem('ftp://example.com/x', false)!, /http or https/);
    assert.match(urlProblem('file:///etc/passwd', true)!, /http or https/);
    assert.equal(urlProblem('https://example.com/hook', false), null);
  });

  test('literal private addresses are refused unless private targets are allowed', () => {
    assert.match(urlProblem('http://127.0.0.1/hook', false)!, /loopback address \(127\.0\.0\.1\)/);
    assert.match(urlProblem('http://169.254.169.254/latest/meta-data', false)!, /link-local/);
    assert.match(urlProblem('http://[::ffff:127.0.0.1]:8080/', false)!, /loopback/);
    assert.match(urlProblem('http://[::1]/', false)!, /loopback/);
    assert.equal(urlProblem('http://127.0.0.1/hook', true), null);
  });

  test('credentials in the URL are refused', () => {
    assert.match(urlProblem('https://user:pw@example.com/', false)!, /credentials/);
  });

  test('a name is refused when any of its addresses is not public', () => {
    assert.match(resolvedProblem('example.test', ['93.184.216.34', '10.0.0.5'])!, /private address \(10\.0\.0\.5\)/);
    assert.match(resolvedProblem('nowhere.test', [])!, /does not resolve/);
    assert.equal(resolvedProblem('example.test', ['93.184.216.34']), null);
  });
});

describe('after a delivery attempt', () => {
  const base = { schedule: [10, 60, 300], deactivateAfter: 20, random: 0.5 };

  test('a 2xx ends delivery; a 3xx, 4xx, 5xx or no answer does not', () => {
    assert.equal(isDelivered(200), true);
    assert.equal(isDelivered(204), true);
    assert.equal(isDelivered(302), false);
    assert.equal(isDelivered(500), false);
    assert.equal(isDelivered(null), false);
    assert.deepEqual(afterAttempt({ ...base, ok: true, attempt: 1, consecFailures: 0 }), { kind: 'succeeded' });
  });

  test('a failure is retried after the scheduled delay, with at most 10 % jitter', () => {
    assert.deepEqual(afterAttempt({ ...base, ok: false, attempt: 1, consecFailures: 1 }), { kind: 'retry', delayMs: 10_000 });
    assert.deepEqual(afterAttempt({ ...base, ok: false, attempt: 2, consecFailures: 2, random: 0 }), { kind: 'retry', delayMs: 54_000 });
    assert.deepEqual(afterAttempt({ ...base, ok: false, attempt: 3, consecFailures: 3, random: 0.999999 }), { kind: 'retry', delayMs: 330_000 });
  });

  test('after the last scheduled retry the delivery gives up', () => {
    assert.deepEqual(afterAttempt({ ...base, ok: false, attempt: 4, consecFailures: 4 }), { kind: 'gave_up' });
  });

  test('the failure that reaches the limit deactivates the webhook', () => {
    assert.deepEqual(afterAttempt({ ...base, ok: false, attempt: 2, consecFailures: 20 }), { kind: 'deactivated' });
    assert.deepEqual(afterAttempt({ ...base, ok: false, attempt: 2, consecFailures: 19 }), { kind: 'retry', delayMs: 60_000 });
  });
});

describe('which events a key reaches', () => {
  const ev = (o: Partial<Parameters<typeof canSeeEvent>[1]>) => ({
    org_id: 'org_a',
    project_id: 'prj_a',
    inbox_id: null,
    agent_id: null,
    inbox_agent_id: null,
    ...o,
  });
  const project = { org_id: 'org_a', project_id: 'prj_a', agent_id: 'agt_me', inbox_id: null };

  test('a project key sees its own agent inboxes and agent-level events, not a sibling agent or another tenant', () => {
    assert.equal(canSeeEvent(project, ev({ inbox_id: 'inb_1', inbox_agent_id: 'agt_me' })), true);
    assert.equal(canSeeEvent(project, ev({ inbox_id: 'inb_2', inbox_agent_id: 'agt_sibling' })), false);
    assert.equal(canSeeEvent(project, ev({ agent_id: 'agt_me' })), true);
    assert.equal(canSeeEvent(project, ev({})), true);
    assert.equal(canSeeEvent(project, ev({ agent_id: 'agt_sibling' })), false);
    assert.equal(canSeeEvent(project, ev({ project_id: 'prj_b', inbox_id: 'inb_1', inbox_agent_id: 'agt_me' })), false);
    assert.equal(canSeeEvent(project, ev({ org_id: 'org_b' })), false);
  });

  test('events of a deleted inbox (no owner left to look up) reach the agent they name, and no sibling', () => {
    assert.equal(canSeeEvent(project, ev({ inbox_id: 'inb_gone', inbox_agent_id: null, agent_id: 'agt_me' })), true);
    assert.equal(canSeeEvent(project, ev({ inbox_id: 'inb_gone', inbox_agent_id: null, agent_id: 'agt_sibling' })), false);
    assert.equal(canSeeEvent(project, ev({ inbox_id: 'inb_gone', inbox_agent_id: null, agent_id: null })), false);
  });

  test('an inbox key sees only events about its inbox', () => {
    const inbox = { ...project, inbox_id: 'inb_1' };
    assert.equal(canSeeEvent(inbox, ev({ inbox_id: 'inb_1', inbox_agent_id: 'agt_me' })), true);
    assert.equal(canSeeEvent(inbox, ev({ inbox_id: 'inb_3', inbox_agent_id: 'agt_me' })), false);
    assert.equal(canSeeEvent(inbox, ev({ agent_id: 'agt_me' })), false);
  });

  test('an org key sees its whole org', () => {
    const org = { org_id: 'org_a', project_id: null, agent_id: null, inbox_id: null };
    assert.equal(canSeeEvent(org, ev({ project_id: 'prj_z', inbox_id: 'inb_9', inbox_agent_id: 'agt_x' })), true);
    assert.equal(canSeeEvent(org, ev({ org_id: 'org_b' })), false);
  });

  test('a types filter names known event types', () => {
    assert.deepEqual(parseTypeFilter(undefined), { types: null, unknown: [] });
    assert.deepEqual(parseTypeFilter(' message.received , review.sent'), { types: new Set(['message.received', 'review.sent']), unknown: [] });
    assert.deepEqual(parseTypeFilter('message.recieved').unknown, ['message.recieved']);
  });
});

describe('the target check at delivery time', () => {
  // A URL stored before a range was known to be internal is checked again on every post.
  for (const url of ['http://[::ffff:0:7f00:1]/hook', 'http://[2002:7f00:1::]/hook', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook']) {
    test(`a post to ${url} is refused before connecting`, async () => {
      const r = await postWebhook({ url, body: Buffer.from('{}'), headers: {}, timeoutMs: 2000, allowPrivate: false });
      assert.equal(r.status, null);
      assert.match(r.error!, /^target refused: .*loopback/);
    });
  }
});
