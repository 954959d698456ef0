// Values from the served OpenAPI document for tests that walk every operation: a plausible value
// of a schema (so the rest of a request is valid while one field is hostile), the fields of a
// body with their schemas, and a body with one field replaced.
import type { OperationSpec } from '../../http/openapi.ts';

export type Json = Record<string, any>;

export function schemaTools(api: Json) {
  const resolve = (node: Json | undefined): Json | undefined => {
    let n = node;
    for (let i = 0; n?.$ref && i < 10; i++) {
      n = String(n.$ref).replace(/^#\//, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).reduce((acc: Json, k) => acc?.[k], api);
    }
    return n;
  };
  const merged = (schema: Json | undefined): Json => {
    const s = resolve(schema) ?? {};
    if (!s.allOf) return s;
    const out: Json = { ...s, properties: { ...(s.properties ?? {}) }, required: [...(s.required ?? [])] };
    for (const part of s.allOf) {
      const p = merged(part);
      Object.assign(out.properties, p.properties ?? {});
      out.required.push(...(p.required ?? []));
      out.type ??= p.type;
    }
    return out;
  };

  /** A plausible value of the schema, so the rest of a body is valid while one field is hostile. */
  function sample(schema: Json | undefined, depth = 0): unknown {
    const s = merged(schema);
    if (s.example !== undefined) return s.example;
    if (s.enum) return s.enum[0];
    if (s.oneOf || s.anyOf) return sample((s.oneOf ?? s.anyOf)[0], depth + 1);
    const type = Array.isArray(s.type) ? s.type[0] : s.type ?? (s.properties ? 'object' : undefined);
    switch (type) {
      case 'string':
        if (s.format === 'email') return 'someone@example.com';
        if (s.format === 'uri' || s.pattern === '^https?://') return 'https://example.com/x';
        if (s.format === 'date-time') return '2030-01-01T00:00:00Z';
        return 'x'.repeat(Math.max(1, s.minLength ?? 8));
      case 'integer':
      case 'number':
        return s.minimum ?? 1;
      case 'boolean':
        return true;
      case 'array':
        return depth > 4 ? [] : Array.from({ length: s.minItems ?? 0 }, () => sample(s.items, depth + 1));
      case 'object': {
        if (depth > 4) return {};
        const out: Json = {};
        for (const k of s.required ?? []) out[k] = sample(s.properties?.[k], depth + 1);
        return out;
      }
      default:
        return 'x';
    }
  }

  function bodySchemaOf(op: OperationSpec): Json | undefined {
    if (!op.bodyPointer) return undefined;
    return op.bodyPointer.replace(/^#\//, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).reduce((acc: Json, k) => acc?.[k], api);
  }
  /** The body's fields, two levels down, each with its schema. */
  function fieldsOf(schema: Json | undefined, prefix: string[] = [], depth = 0): Array<[string[], Json]> {
    const s = merged(schema);
    const out: Array<[string[], Json]> = [];
    for (const [k, sub] of Object.entries<Json>(s.properties ?? {})) {
      out.push([[...prefix, k], sub]);
      if (depth < 1 && merged(sub).properties) out.push(...fieldsOf(sub, [...prefix, k], depth + 1));
    }
    return out;
  }

  function withField(base: unknown, path: string[], value: unknown): unknown {
    const root: Json = base && typeof base === 'object' && !Array.isArray(base) ? structuredClone(base) as Json : {};
    let node = root;
    for (const k of path.slice(0, -1)) {
      if (!node[k] || typeof node[k] !== 'object' || Array.isArray(node[k])) node[k] = {};
      node = node[k];
    }
    node[path[path.length - 1]!] = value;
    return root;
  }


  return { resolve, merged, sample, bodySchemaOf, fieldsOf, withField };
}
