// Invalid variants of a valid value, derived from its JSON Schema: each mutation breaks one spot
// (wrong type, missing required field, unknown field, out-of-range number, bad pattern or enum,
// over-long or too-short string, too few or too many items). Callers confirm with zod that the
// result is really invalid (a union may accept what one branch rejects).
import fc from 'fast-check';
import { arbitraryFor, deref, typesOf, type JsonSchema } from './json-schema.ts';

export type Kind =
  | 'wrong-type'
  | 'missing-required'
  | 'unknown-field'
  | 'out-of-range'
  | 'not-integer'
  | 'bad-pattern'
  | 'bad-enum'
  | 'bad-format'
  | 'too-short'
  | 'over-long'
  | 'too-few-items'
  | 'too-many-items'
  | 'bad-key';

export const REMOVE = Symbol('remove');
export type Path = (string | number)[];

export interface Mutation {
  kind: Kind;
  path: Path;
  value: unknown;
}

const SAMPLE_OF_TYPE: Record<string, unknown> = {
  string: 'not-the-right-type',
  number: 12345.5,
  integer: 7,
  boolean: true,
  null: null,
  array: ['x'],
  object: { nested: 1 },
};

/** Keys no request schema knows; two of them are prototype-pollution classics. */
export const UNKNOWN_KEYS = ['unexpectedField', '__proto__', 'constructor'] as const;

function replacements(schema: JsonSchema, root: JsonSchema, current: unknown): Omit<Mutation, 'path'>[] {
  const s = deref(schema, root);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return alternatives.flatMap((a) => replacements(a, root, current));
  const out: Omit<Mutation, 'path'>[] = [];
  const types = new Set(typesOf(s));
  if (types.has('number')) types.add('integer');
  if (s.enum || s.const !== undefined) {
    out.push(
      { kind: 'bad-enum', value: 'not-one-of-the-allowed-values' },
      { kind: 'over-long', value: 'x'.repeat(5000) },
    );
  }
  for (const [t, v] of Object.entries(SAMPLE_OF_TYPE)) if (!types.has(t)) out.push({ kind: 'wrong-type', value: v });
  if (types.has('string')) {
    if ((s.minLength ?? 0) > 0) out.push({ kind: 'too-short', value: 'x'.repeat(s.minLength! - 1) });
    if (s.maxLength !== undefined) out.push({ kind: 'over-long', value: 'x'.repeat(s.maxLength + 1) });
    if (s.pattern) {
      const re = new RegExp(s.pattern);
      for (const v of [
        '',
        ' ',
        'has spaces & symbols!',
        'ZZZZZZZZ',
        '<script>alert(1)</script>',
        'ünïcödé',
        'x'.repeat(3000),
      ]) {
        if (!re.test(v)) out.push({ kind: 'bad-pattern', value: v });
      }
    }
    if (s.format === 'date-time')
      for (const v of ['2026-02-30T10:00:00Z', '2026-11-02T00:00:00+01:00', 'yesterday'])
        out.push({ kind: 'bad-format', value: v });
    if (s.format === 'uri')
      for (const v of ['not a url', 'ftp://example.com/x', 'javascript:alert(1)'])
        out.push({ kind: 'bad-format', value: v });
  }
  if (types.has('integer') || types.has('number')) {
    if (s.minimum !== undefined) out.push({ kind: 'out-of-range', value: s.minimum - 1 });
    if (s.maximum !== undefined) out.push({ kind: 'out-of-range', value: s.maximum + 1 });
    if (s.exclusiveMinimum !== undefined) out.push({ kind: 'out-of-range', value: s.exclusiveMinimum });
    if (s.exclusiveMaximum !== undefined) out.push({ kind: 'out-of-range', value: s.exclusiveMaximum });
    if (!types.has('number')) out.push({ kind: 'not-integer', value: 1.5 });
  }
  if (types.has('array')) {
    const min = s.minItems ?? 0;
    const items = Array.isArray(current) ? current : [];
    if (min > 0) out.push({ kind: 'too-few-items', value: items.slice(0, min - 1) });
    if (s.maxItems !== undefined && s.items) {
      const item = items[0] ?? fc.sample(arbitraryFor(s.items, root), 1)[0];
      out.push({ kind: 'too-many-items', value: Array.from({ length: s.maxItems + 1 }, () => item) });
    }
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every single-spot mutation of `value` (which conforms to `schema`). */
export function mutationsOf(
  value: unknown,
  schema: JsonSchema,
  root: JsonSchema = schema,
  path: Path = [],
): Mutation[] {
  const s = deref(schema, root);
  const out: Mutation[] = replacements(s, root, value).map((m) => ({ ...m, path }));
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) {
    for (const a of alternatives) out.push(...descend(value, deref(a, root), root, path));
    return out;
  }
  out.push(...descend(value, s, root, path));
  return out;
}

function descend(value: unknown, s: JsonSchema, root: JsonSchema, path: Path): Mutation[] {
  const out: Mutation[] = [];
  if (isPlainObject(value) && typesOf(s).includes('object')) {
    const props = s.properties ?? {};
    for (const [k, sub] of Object.entries(props)) {
      if (k in value) out.push(...mutationsOf(value[k], sub, root, [...path, k]));
      else out.push(...replacements(sub, root, undefined).map((m) => ({ ...m, path: [...path, k] })));
    }
    for (const k of s.required ?? [])
      if (k in value) out.push({ kind: 'missing-required', path: [...path, k], value: REMOVE });
    if (s.additionalProperties === false)
      for (const k of UNKNOWN_KEYS) out.push({ kind: 'unknown-field', path: [...path, k], value: 1 });
    if (s.propertyNames?.pattern) {
      const re = new RegExp(s.propertyNames.pattern);
      for (const k of ['1starts-with-digit', 'has space', ''])
        if (!re.test(k)) out.push({ kind: 'bad-key', path: [...path, k], value: 'v' });
    }
    if (isPlainObject(s.additionalProperties) && !Object.keys(props).length) {
      const first = Object.keys(value)[0];
      if (first !== undefined) out.push(...mutationsOf(value[first], s.additionalProperties, root, [...path, first]));
    }
  }
  if (Array.isArray(value) && s.items) {
    if (value.length) out.push(...mutationsOf(value[0], s.items, root, [...path, 0]));
    else out.push(...replacements(s.items, root, undefined).map((m) => ({ ...m, path: [...path, 0] })));
  }
  return out;
}

/** A copy of `base` with the mutation applied (own properties, so `__proto__` is a plain key). */
export function applyMutation(base: unknown, m: Mutation): unknown {
  if (m.path.length === 0) return m.value;
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let node = copy;
  for (const key of m.path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = m.path[m.path.length - 1]!;
  if (m.value === REMOVE) delete node[last];
  else Object.defineProperty(node, last, { value: m.value, enumerable: true, writable: true, configurable: true });
  return copy;
}

export function describeMutation(m: Mutation): string {
  const v = m.value === REMOVE ? '(removed)' : JSON.stringify(m.value)?.slice(0, 60);
  return `${m.kind} at ${m.path.length ? m.path.join('.') : '(root)'}: ${v}`;
}
