// The OpenAPI 3.0.3 document: written once (a root file plus one file of paths per resource),
// merged here into the single served document that also drives routing, auth and validation.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load as parseYaml } from 'js-yaml';
import YAML from 'yaml';
import { CONSOLE_OPERATIONS } from '../machines/policy/console-operations.ts';
import { CEILING_GRANTS, PERMISSION_GRANTS, grantedBy, rolesAdmitted } from '../machines/policy/console-roles.ts';
import { PERMISSIONS } from '../machines/policy/permissions.ts';
import { ERROR_CODES } from '../machines/problems.ts';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'openapi');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type Method = (typeof METHODS)[number];

type Json = Record<string, any>;

export type Plane = 'none' | 'agent' | 'console';

export type OperationSpec = {
  operationId: string;
  method: Method;
  path: string;
  plane: Plane;
  /** Any one of these permissions admits an agent key; empty means any valid key. */
  permissions: string[];
  /** Console need, from CONSOLE_OPERATIONS: `any`, `read`, `write`, `admin`, `org_admin`, `billing`, `staff`. */
  consoleRole: string | null;
  idempotent: boolean;
  maxBodyBytes: number;
  /** The body has `attachments[].content` in base64: a large one is decoded from its bytes (attachment-bytes.ts). */
  attachmentsInBody: boolean;
  envelope: 'problem' | 'legacy';
  parameters: Json[];
  bodyPointer: string | null;
  bodyRequired: boolean;
  /** Long-lived responses (SSE, long polls) that must not hold a request timeout. */
  streaming: boolean;
  /** The `include` paths the operation expands (`x-include`); none when it lists none. */
  includes: string[];
  /** A revoked or expired temporary sign-up key is let through (`x-spent-signup-key`): the verify call answers it. */
  spentSignupKey: boolean;
};

export type ApiDocument = { doc: Json; yaml: string; json: string; operations: OperationSpec[] };

// Read with js-yaml: a quarter of the CPU of \`yaml\` in a fresh process, the same values for this
// document (YAML 1.2, no tags). The served YAML text is still written by \`yaml\`.
function readYaml(file: string): Json {
  return parseYaml(fs.readFileSync(file, 'utf8'), { filename: file }) as Json;
}

export function mergeDocument(): Json {
  const doc = readYaml(path.join(DIR, 'openapi.yaml'));
  doc.paths ??= {};
  doc.components ??= {};
  const files = fs.readdirSync(path.join(DIR, 'paths')).filter((f) => f.endsWith('.yaml')).sort();
  for (const file of files) {
    const part = readYaml(path.join(DIR, 'paths', file));
    for (const [p, item] of Object.entries(part.paths ?? {})) {
      if (doc.paths[p]) throw new Error(`openapi: path ${p} is defined twice (${file})`);
      doc.paths[p] = item;
    }
    for (const [section, entries] of Object.entries(part.components ?? {})) {
      doc.components[section] ??= {};
      for (const [name, value] of Object.entries(entries as Json)) {
        if (doc.components[section][name]) throw new Error(`openapi: components.${section}.${name} is defined twice (${file})`);
        doc.components[section][name] = value;
      }
    }
  }
  // The closed `code` enum is the service's one error registry, so the document cannot drift from it.
  doc.components.schemas.Problem.properties.code.enum = Object.keys(ERROR_CODES);
  renderConsoleRoles(doc);
  renderPermissionGrants(doc);
  return doc;
}

/**
 * Each console operation's need comes from the one table in code, written into the document as
 * `x-console-role` (the need) and `x-console-roles` (the membership roles it admits). A console
 * operation the table lacks, or one that states its own role, stops the load.
 */
function renderConsoleRoles(doc: Json): void {
  for (const [p, item] of Object.entries(doc.paths as Json)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op || planeOf(op, doc) !== 'console') continue;
      if (op['x-console-role'] !== undefined) throw new Error(`openapi: ${op.operationId} states x-console-role; it comes from machines/policy/console-operations.ts`);
      const need = CONSOLE_OPERATIONS[op.operationId];
      if (!need) throw new Error(`openapi: console operation ${op.operationId} (${method.toUpperCase()} ${p}) has no role in machines/policy/console-operations.ts`);
      op['x-console-role'] = need;
      op['x-console-roles'] = [...rolesAdmitted(need)];
    }
  }
}

/** The minting rule, per permission: who may put it in a key or an enrollment token. */
function renderPermissionGrants(doc: Json): void {
  const schema = doc.components.schemas.Permission;
  schema.enum = [...PERMISSIONS];
  const lines = PERMISSIONS.map((p) => {
    const g = PERMISSION_GRANTS[p];
    const who = g.need === null ? 'nobody' : `\`${g.need}\` (${grantedBy(p).join(', ')})`;
    const same = g.console ? `, as for \`${g.console}\`` : g.why ? `: ${g.why}` : '';
    return `- \`${p}\`: ${who}${same}`;
  });
  schema.description = [
    'An agent permission. A console member mints a key (or an enrollment token) holding it only when the',
    "member's role may do the same act on the console; beyond that the request is `403` (`error: forbidden`) naming",
    `each permission. An org-ceiling key needs \`${CEILING_GRANTS.org}\` (an owner or admin of the whole org, not of`,
    'one project) and counts that org-wide role for its permissions. The role each permission needs (`x-granted-by`):',
    ...lines,
  ].join('\n');
  schema['x-granted-by'] = Object.fromEntries(PERMISSIONS.map((p) => [p, [...grantedBy(p)]]));
}

const pointerEscape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function resolveRef(doc: Json, node: Json): Json {
  if (!node.$ref) return node;
  const parts = String(node.$ref).replace(/^#\//, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.reduce((acc: Json, key) => acc[key], doc);
}

function planeOf(op: Json, doc: Json): Plane {
  const security: Json[] = op.security ?? doc.security ?? [];
  const names = security.flatMap((s) => Object.keys(s));
  if (names.includes('AgentKey')) return 'agent';
  if (names.includes('ClerkSession')) return 'console';
  return 'none';
}

export function operationsOf(doc: Json): OperationSpec[] {
  const ops: OperationSpec[] = [];
  for (const [p, item] of Object.entries(doc.paths as Json)) {
    const shared: Json[] = item.parameters ?? [];
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const plane = planeOf(op, doc);
      const media = op.requestBody?.content?.['application/json'];
      const xp = op['x-permission'];
      const own: Json[] = (op.parameters ?? []).map((prm: Json) => resolveRef(doc, prm));
      const inherited = shared.map((prm) => resolveRef(doc, prm)).filter((prm) => !own.some((o) => o.name === prm.name && o.in === prm.in));
      ops.push({
        operationId: op.operationId,
        method,
        path: p,
        plane,
        permissions: xp === undefined ? [] : Array.isArray(xp) ? xp : [xp],
        consoleRole: plane === 'console' ? op['x-console-role'] : null,
        idempotent: op['x-idempotent'] === true,
        maxBodyBytes: op['x-max-body-bytes'] ?? 1024 * 1024,
        envelope: op['x-error-envelope'] ?? (p.startsWith('/v1/admin/') || p === '/v1/admin' ? 'legacy' : 'problem'),
        parameters: [...inherited, ...own],
        bodyPointer: media?.schema ? `#/paths/${pointerEscape(p)}/${method}/requestBody/content/application~1json/schema` : null,
        bodyRequired: op.requestBody?.required === true,
        attachmentsInBody: resolveRef(doc, media?.schema ?? {}).properties?.attachments !== undefined,
        streaming: op['x-streaming'] === true,
        includes: op['x-include'] ?? [],
        spentSignupKey: op['x-spent-signup-key'] === true,
      });
    }
  }
  return ops;
}

let cached: ApiDocument | null = null;

export function loadApiDocument(): ApiDocument {
  if (cached) return cached;
  const doc = mergeDocument();
  // The YAML text takes a quarter of a second to write: written when first asked for.
  let yaml: string | undefined;
  cached = {
    doc,
    get yaml() {
      return (yaml ??= YAML.stringify(doc));
    },
    json: JSON.stringify(doc),
    operations: operationsOf(doc),
  };
  return cached;
}
