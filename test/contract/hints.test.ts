// Problems tell a client what to do next: a route to call, an MCP tool to use. A hint that names
// a route or tool this service does not have sends an agent into a 404 loop (intent_required once
// pointed at list_categories and GET /v1/categories before either existed). Every route and
// tool named anywhere in the service's own source must be in the OpenAPI document or the MCP
// tool list.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from '../../testkit/test.ts';
import { loadApiDocument } from '../../http/openapi.ts';
import { checkIntent } from '../../machines/policy/intent-gate.ts';
import { PENDING_TOOLS, TOOLS } from '../../packages/mcp/src/index.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SERVER_FOLDERS = ['machines', 'actors', 'http', 'storage', 'mail', 'service', 'roles', 'bin'];

/** Every MCP tool name the contract uses, built or not. */
const CONTRACT_TOOLS = [
  'redeem_enrollment', 'whoami', 'create_inbox', 'list_inboxes', 'get_inbox', 'send_email', 'reply_email',
  'forward_email', 'read_messages', 'get_message', 'search', 'batch_update_messages', 'list_threads', 'get_thread',
  'list_attachments', 'get_attachment', 'wait_for_email', 'register_webhook', 'update_webhook', 'list_webhooks',
  'get_webhook', 'delete_webhook', 'add_contact', 'list_contacts', 'remove_contact', 'check_suppression',
  'list_suppressions', 'suppress_email', 'unsuppress_email', 'get_review', 'get_review_feedback', 'cancel_review',
  'restamp_review', 'list_review_events', 'wait_for_review_event', 'ack_review_event', 'get_rules', 'list_categories',
];
// `search` is also an ordinary word; it counts as a tool name only where spelled as one.
const TOOL_WORDS = [...new Set([...CONTRACT_TOOLS, ...Object.keys(PENDING_TOOLS), ...TOOLS.map((t) => t.name)])].filter((n) => n.includes('_'));
const BUILT_TOOLS = new Set(TOOLS.map((t) => t.name));

const ROUTE_REF = /\b(GET|POST|PUT|PATCH|DELETE)\s+(\/v1\/[A-Za-z0-9_{}$<>.\-/]*[A-Za-z0-9_}>])/g;

type Source = { file: string; text: string };

async function serverSources(): Promise<Source[]> {
  const out: Source[] = [];
  for (const folder of SERVER_FOLDERS) {
    for (const entry of await fs.readdir(path.join(ROOT, folder), { recursive: true })) {
      const file = path.join(folder, String(entry));
      if (!file.endsWith('.ts')) continue;
      out.push({ file, text: await fs.readFile(path.join(ROOT, file), 'utf8') });
    }
  }
  return out;
}

const operations = loadApiDocument().operations;

/** A path named in prose (`{id}`, `${...}` or `<id>` for a parameter) matches a documented route. */
export function routeExists(method: string, named: string): boolean {
  const segments = named.replace(/\$\{[^}]*\}/g, '{p}').split('/');
  return operations.some((op) => {
    if (op.method !== method.toLowerCase()) return false;
    const template = op.path.split('/');
    if (template.length !== segments.length) return false;
    return template.every((part, i) => {
      const seg = segments[i]!;
      const isParam = /^\{.+\}$/.test(part);
      const namesParam = /^[{<].+[}>]$/.test(seg);
      return isParam ? seg !== '' : part === seg && !namesParam;
    });
  });
}

export function toolsNamed(text: string): string[] {
  return TOOL_WORDS.filter((name) => new RegExp(`(?<![\\w])${name}(?![\\w])`).test(text));
}

describe('routes and tools named by the service', () => {
  test('the route matcher accepts documented routes and refuses others', () => {
    assert.ok(routeExists('POST', '/v1/enroll'));
    assert.ok(routeExists('GET', '/v1/reviews/{review_id}'));
    assert.ok(routeExists('POST', '/v1/inboxes/${inbox.id}/send'));
    assert.ok(routeExists('GET', '/v1/categories'));
    assert.ok(!routeExists('GET', '/v1/category'));
    assert.ok(!routeExists('DELETE', '/v1/enroll'));
    assert.deepEqual(toolsNamed('see list_categories, or wait_for_email').sort(), ['list_categories', 'wait_for_email']);
  });

  test('every "METHOD /v1/..." in the server source is a route of the OpenAPI document', async () => {
    const missing: string[] = [];
    let seen = 0;
    for (const { file, text } of await serverSources()) {
      for (const m of text.matchAll(ROUTE_REF)) {
        seen++;
        if (!routeExists(m[1]!, m[2]!)) missing.push(`${file}: ${m[1]} ${m[2]}`);
      }
    }
    assert.ok(seen > 0, 'the scan finds the route hints that exist');
    assert.deepEqual(missing, []);
  });

  test('every MCP tool named in the server source is a tool the MCP server has', async () => {
    const missing: string[] = [];
    for (const { file, text } of await serverSources()) {
      for (const name of toolsNamed(text)) if (!BUILT_TOOLS.has(name)) missing.push(`${file}: ${name}`);
    }
    assert.deepEqual(missing, []);
  });

  test('the intent_required problem names only routes and tools that exist', () => {
    for (const category_id of [null, 'cat_x']) {
      const problem = checkIntent({ policy: 'require_review', source: 'account_default', intent: undefined, category_id });
      assert.equal(problem?.code, 'intent_required');
      const text = JSON.stringify(problem);
      for (const m of text.matchAll(ROUTE_REF)) assert.ok(routeExists(m[1]!, m[2]!), `${m[1]} ${m[2]}`);
      for (const name of toolsNamed(text)) assert.ok(BUILT_TOOLS.has(name), name);
    }
  });

  test('the intent_required hint for category_id names the category list, on the agent plane and as the MCP tool', () => {
    const problem = checkIntent({ policy: 'require_review', source: 'account_default', intent: undefined, category_id: null });
    const hint = problem!.errors.find((e) => e.field === 'category_id')!.detail;
    assert.ok(hint.includes('GET /v1/categories') && routeExists('GET', '/v1/categories'), hint);
    assert.ok(toolsNamed(hint).includes('list_categories') && BUILT_TOOLS.has('list_categories'), hint);
  });
});
