// Generates the SDK's types and methods from the OpenAPI document (the contract's one written
// form). The output is committed; a test fails when it drifts from the document.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { mergeDocument, operationsOf, type OperationSpec } from '../../../http/openapi.ts';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'generated');
const HEADER = '// Generated from the OpenAPI document by `npm run generate -w @agent-inbox/sdk`. Do not edit.\n';

/** The agent plane: every operation an agent key calls, plus the unauthenticated ones agents use. */
export function sdkOperations(doc: Record<string, any>): OperationSpec[] {
  return operationsOf(doc).filter((op) => {
    const raw = doc.paths[op.path][op.method];
    if (raw['x-sdk'] === false) return false;
    return op.plane === 'agent' || raw['x-agent-public'] === true;
  });
}

function methodSource(doc: Record<string, any>, op: OperationSpec): string {
  const raw = doc.paths[op.path][op.method];
  const id = op.operationId;
  const pathParams = op.parameters.filter((p) => p.in === 'path').map((p) => p.name as string);
  const ordered = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).filter((n) => pathParams.includes(n));
  const hasQuery = op.parameters.some((p) => p.in === 'query');
  const args = ordered.map((n) => `${n}: string`);
  if (op.bodyPointer) args.push(`body${op.bodyRequired ? '' : '?'}: T.BodyOf<'${id}'>`);
  if (hasQuery) args.push(`query?: T.QueryOf<'${id}'>`);
  args.push('options?: T.CallOptions');
  const ok = Object.keys(raw.responses ?? {}).find((s) => /^2/.test(s));
  const media = ok ? Object.keys(raw.responses[ok]?.content ?? {}) : [];
  const kind = media.includes('text/event-stream') ? 'response' : media.length === 0 || media.some((m) => /json/.test(m)) ? 'json' : 'bytes';
  const ret = kind === 'response' ? 'Response' : kind === 'bytes' ? 'Uint8Array' : `T.ResponseOf<'${id}'>`;
  const params = ordered.length ? `{ ${ordered.join(', ')} }` : '{}';
  const doc1 = (raw.summary ?? '').replace(/\*\//g, '* /');
  return [
    `  /** ${doc1} (${op.method.toUpperCase()} ${op.path}) */`,
    `  ${id}(${args.join(', ')}): Promise<${ret}> {`,
    `    return this.call('${id}', ${params}, ${op.bodyPointer ? 'body' : 'undefined'}, ${hasQuery ? 'query' : 'undefined'}, '${kind}', options);`,
    '  }',
  ].join('\n');
}

// OpenAPI 3.0 schema → self-contained JSON Schema: references inlined, `nullable` spelled as a
// type union, extensions dropped. Tool hosts (MCP clients) validate against these.
function toJsonSchema(doc: Record<string, any>, node: any, seen: string[] = []): any {
  if (Array.isArray(node)) return node.map((n) => toJsonSchema(doc, n, seen));
  if (!node || typeof node !== 'object') return node;
  if (node.$ref) {
    const ref = String(node.$ref);
    if (seen.includes(ref)) return {};
    const target = ref.replace(/^#\//, '').split('/').reduce((acc: any, k: string) => acc?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return toJsonSchema(doc, target, [...seen, ref]);
  }
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k.startsWith('x-') || k === 'nullable' || k === 'example' || k === 'discriminator' || k === 'xml') continue;
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([pk, pv]) => [pk, toJsonSchema(doc, pv, seen)])) : toJsonSchema(doc, v, seen);
  }
  if (node.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/** One flat input object per operation: path and query parameters and the body's members. */
function inputOf(doc: Record<string, any>, op: OperationSpec) {
  const properties: Record<string, any> = {};
  const required: string[] = [];
  const where: Record<string, 'path' | 'query' | 'body'> = {};
  for (const p of op.parameters.filter((x) => x.in === 'path' || x.in === 'query')) {
    properties[p.name] = { ...toJsonSchema(doc, p.schema ?? {}), ...(p.description ? { description: p.description } : {}) };
    where[p.name] = p.in;
    if (p.required) required.push(p.name);
  }
  if (op.bodyPointer) {
    const body = toJsonSchema(doc, { $ref: op.bodyPointer });
    const members = { ...(body.properties ?? {}) };
    for (const part of body.allOf ?? []) Object.assign(members, part.properties ?? {});
    for (const [name, schema] of Object.entries(members)) {
      if (where[name]) throw new Error(`${op.operationId}: body member ${name} collides with a parameter`);
      properties[name] = schema;
      where[name] = 'body';
    }
    for (const name of body.required ?? []) required.push(name);
  }
  return { schema: { type: 'object', properties, ...(required.length ? { required } : {}) }, where };
}

/**
 * `name?: T` becomes `name?: T | undefined` everywhere: under `exactOptionalPropertyTypes` a
 * consumer may then pass `{ cursor: maybeCursor }` as well as leave the member out, which is what
 * the wire does anyway (JSON and the query string drop an undefined member).
 */
function optionalAcceptsUndefined(nodes: ts.Node[]): ts.Node[] {
  const f = ts.factory;
  const widen: ts.TransformerFactory<ts.Node> = (ctx) => {
    const visit = (node: ts.Node): ts.Node => {
      const next = ts.visitEachChild(node, visit, ctx);
      if (!ts.isPropertySignature(next) || !next.questionToken || !next.type) return next;
      const undef = f.createKeywordTypeNode(ts.SyntaxKind.UndefinedKeyword);
      const members = ts.isUnionTypeNode(next.type) ? next.type.types : [next.type];
      // `never` says there is no such member (no query, no `put`): nothing to widen.
      if (members.some((t) => t.kind === ts.SyntaxKind.UndefinedKeyword || t.kind === ts.SyntaxKind.NeverKeyword)) return next;
      return f.updatePropertySignature(next, next.modifiers, next.name, next.questionToken, f.createUnionTypeNode([...members, undef]));
    };
    return (root) => ts.visitNode(root, visit)!;
  };
  return ts.transform(nodes, [widen]).transformed;
}

const MANIFEST_SHAPES = ['SendIntent', 'SendAccepted', 'ReviewState', 'ReviewAction', 'Review', 'ReviewFeedback', 'ReviewEventItem', 'ReviewEventList', 'ReviewCursor', 'Problem'];

export async function generate(): Promise<Record<string, string>> {
  const doc = mergeDocument();
  const ops = sdkOperations(doc);
  const schema = HEADER + astToString(optionalAcceptsUndefined(await openapiTS(structuredClone(doc) as any)));
  const table = ops.map((op) => `  ${op.operationId}: { method: '${op.method.toUpperCase()}', path: '${op.path}' },`).join('\n');
  const operations = `${HEADER}\nexport const OPERATIONS = {\n${table}\n} as const;\n\nexport type OperationId = keyof typeof OPERATIONS;\n`;
  const methods = `${HEADER}import type * as T from '../types.ts';
import type { OperationId } from './operations.ts';

export abstract class GeneratedMethods {
  protected abstract call(
    id: OperationId,
    params: Record<string, string>,
    body: unknown,
    query: unknown,
    kind: 'json' | 'bytes' | 'response',
    options?: T.CallOptions,
  ): Promise<any>;

${ops.map((op) => methodSource(doc, op)).join('\n\n')}
}
`;
  const inputs = `${HEADER}
/** Each agent-plane operation's input as one flat JSON Schema object, and where each member goes. */
export const INPUTS: Record<string, { schema: Record<string, unknown>; where: Record<string, 'path' | 'query' | 'body'> }> = ${JSON.stringify(
    Object.fromEntries(ops.map((op) => [op.operationId, inputOf(doc, op)])),
    null,
    2,
  )};
`;
  const manifest = `${HEADER}
/**
 * The stable agent-facing Review Loop JSON shapes, as JSON Schema: what a send answers, a review,
 * its feedback and event items, the ack cursor, and the problem+json of its 409s and 422s.
 */
export const REVIEW_LOOP_MANIFEST = ${JSON.stringify(
    {
      contract_version: doc.info.version,
      shapes: Object.fromEntries(MANIFEST_SHAPES.map((name) => [name, toJsonSchema(doc, { $ref: `#/components/schemas/${name}` })])),
    },
    null,
    2,
  )} as const;
`;
  return { 'schema.ts': schema, 'operations.ts': operations, 'methods.ts': methods, 'inputs.ts': inputs, 'manifest.ts': manifest };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await fs.mkdir(OUT, { recursive: true });
  for (const [name, text] of Object.entries(await generate())) await fs.writeFile(path.join(OUT, name), text);
  console.log(`generated ${Object.keys(await generate()).join(', ')} in ${OUT}`);
}
