// Request validation from the OpenAPI document's schemas, each compiled once, when first needed.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Problem, type FieldError } from '../machines/problems.ts';
import type { ApiDocument, OperationSpec } from './openapi.ts';

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => void;

export type Validators = {
  body?: ValidateFunction;
  query?: ValidateFunction;
  params?: ValidateFunction;
  /** Accepted top-level body keys, named when an unknown key is refused. */
  bodyKeys: string[];
};

function newAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, useDefaults: true, coerceTypes: coerce ? 'array' : false });
  addFormats(ajv);
  return ajv;
}

function objectSchema(params: Record<string, any>[], where: string): Record<string, any> | null {
  const list = params.filter((p) => p.in === where);
  if (list.length === 0) return null;
  return {
    type: 'object',
    properties: Object.fromEntries(list.map((p) => [p.name, p.schema ?? {}])),
    required: list.filter((p) => p.required).map((p) => p.name),
  };
}

/**
 * Each operation's validators, each compiled the first time a request needs it: compiling all of
 * them costs half a second of CPU at every start, most of it for operations a process never serves.
 */
export function requestValidators(api: ApiDocument, only?: (op: OperationSpec) => boolean): Map<string, Validators> {
  let ajvs: { strict: Ajv; coercing: Ajv } | undefined;
  const ajv = () => {
    if (!ajvs) {
      ajvs = { strict: newAjv(false), coercing: newAjv(true) };
      ajvs.strict.addSchema(api.doc, 'api');
      ajvs.coercing.addSchema(api.doc, 'api');
    }
    return ajvs;
  };
  const out = new Map<string, Validators>();
  for (const op of api.operations) {
    if (only && !only(op)) continue;
    const query = objectSchema(op.parameters, 'query');
    const params = objectSchema(op.parameters, 'path');
    const body = op.bodyPointer ? once(() => ajv().strict.compile({ $ref: `api${op.bodyPointer}` })) : undefined;
    const queryCheck = query ? once(() => ajv().coercing.compile(withComponents(query))) : undefined;
    const paramsCheck = params ? once(() => ajv().coercing.compile(withComponents(params))) : undefined;
    const keys = once(() => (op.bodyPointer ? topLevelKeys(api.doc, op) : []));
    out.set(op.operationId, {
      get body() {
        return body?.();
      },
      get query() {
        return queryCheck?.();
      },
      get params() {
        return paramsCheck?.();
      },
      get bodyKeys() {
        return keys();
      },
    });
  }
  return out;
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

// Parameter schemas may reference components; point those at the registered document.
function withComponents(schema: Record<string, any>): Record<string, any> {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"api#/components/'));
}

function topLevelKeys(doc: Record<string, any>, op: OperationSpec): string[] {
  const parts = op.bodyPointer!.replace(/^#\//, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const node = parts.reduce((acc: any, k) => acc?.[k], doc);
  const seen = new Set<string>();
  const collect = (n: any): void => {
    if (!n) return;
    if (n.$ref) return collect(String(n.$ref).replace(/^#\//, '').split('/').reduce((acc: any, k: string) => acc?.[k], doc));
    for (const k of Object.keys(n.properties ?? {})) seen.add(k);
    for (const sub of n.allOf ?? []) collect(sub);
  };
  collect(node);
  return [...seen].sort();
}

function fieldOf(e: ErrorObject, root: string): string {
  const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'required') return [base, (e.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
  if (e.keyword === 'additionalProperties') {
    return [base, (e.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.');
  }
  return base || root;
}

function codeOf(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required': return 'required';
    case 'additionalProperties': return 'unknown_key';
    case 'type': return 'invalid_type';
    case 'enum': return 'invalid_value';
    case 'format': return 'invalid_format';
    case 'minLength': return 'too_short';
    case 'maxLength': return 'too_long';
    case 'minimum': case 'exclusiveMinimum': return 'too_small';
    case 'maximum': case 'exclusiveMaximum': return 'too_large';
    case 'minItems': return 'too_few';
    case 'maxItems': return 'too_many';
    default: return 'invalid';
  }
}

/** Turns ajv errors into one 400 problem naming each offending field. */
export function validationProblem(errors: ErrorObject[], root: string, acceptedKeys: string[] = []): Problem {
  const relevant = errors.filter((e) => !['anyOf', 'oneOf', 'if', 'allOf'].includes(e.keyword));
  const list: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of relevant.length ? relevant : errors) {
    const field = fieldOf(e, root);
    const code = codeOf(e);
    const key = `${field}|${code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const detail =
      code === 'unknown_key' && e.instancePath === ''
        ? `unknown key "${field}"; accepted keys: ${acceptedKeys.join(', ')}`
        : code === 'unknown_key'
          ? `unknown key "${field}"`
          : code === 'required'
            ? `${field} is required`
            : `${field} ${e.message ?? 'is invalid'}`;
    list.push({ field, code, detail });
  }
  const detail = list.map((e) => e.detail).join('; ');
  return new Problem('bad_request', { detail, errors: list });
}

// PostgreSQL's text and jsonb cannot hold U+0000: a value carrying it would fail inside the query
// (a 500) or could never match a stored one. It is refused before anything reads the database.
const NUL = '\u0000';

/**
 * The first value (or object key) holding U+0000, as a dotted field path ('' for the root); null
 * when none does. Walked with a stack of its own, not by recursion: a body is depth-checked before
 * it is parsed, but nothing here should depend on that to keep the call stack whole.
 */
export function nulField(value: unknown, path = ''): string | null {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path }];
  while (stack.length > 0) {
    const { value: v, path: at } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return at;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const join = (key: string | number) => (at ? `${at}.${key}` : String(key));
    const children: Array<{ value: unknown; path: string }> = [];
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) children.push({ value: v[i], path: join(i) });
    } else {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes(NUL)) return at || 'body';
        children.push({ value: item, path: join(key) });
      }
    }
    // Pushed last first, so the first field in document order is the one reported.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return null;
}

/**
 * How deep a JSON body may nest (objects and arrays). No request of the API comes near it; a body
 * nested 100 000 deep used to overflow the call stack of the recursive walks after parsing (a 500).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether the JSON text nests deeper than `limit`, read from its characters in one pass, before it
 * is parsed: brackets inside strings are skipped, escapes included. Text that is not JSON at all is
 * left for the parser to refuse.
 */
export function jsonTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The 400 for a body nested past MAX_JSON_DEPTH. */
export const tooDeepProblem = (field = 'body'): Problem =>
  new Problem('bad_request', {
    detail: `${field} nests objects and arrays more than ${MAX_JSON_DEPTH} deep.`,
    errors: [{ field, code: 'too_deep', detail: `at most ${MAX_JSON_DEPTH} levels of nesting` }],
  });

/** A 400 naming the parameter or body field that holds U+0000; null when none does. */
export function nulProblem(params: Record<string, unknown>, query: Record<string, unknown>, body?: unknown): Problem | null {
  const named = (values: Record<string, unknown>) => Object.keys(values).find((k) => k.includes(NUL) || nulField(values[k]) !== null);
  const inBody = body === undefined ? null : nulField(body);
  const field = named(params) ?? named(query) ?? (inBody === null ? undefined : inBody || 'body');
  if (field === undefined) return null;
  const detail = `${field} contains a NUL character (U+0000), which cannot be stored`;
  return new Problem('bad_request', { detail, errors: [{ field, code: 'invalid_character', detail }] });
}
