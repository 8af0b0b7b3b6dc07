// The subset of JSON Schema that `z.toJSONSchema` emits for the mock hub's request schemas, and a
// fast-check arbitrary of values that conform to it (checked against zod by the callers, since
// refinements such as "exactly one of url/job" are not representable in JSON Schema).
import fc from 'fast-check';
import { z } from 'zod';

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

/** The input-side JSON Schema of a zod schema (what a client may send). */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Follows a local `$ref` (`#/$defs/x`) against the root schema. */
export function deref(s: JsonSchema, root: JsonSchema): JsonSchema {
  if (!s.$ref) return s;
  const name = s.$ref.replace(/^#\/\$defs\//, '');
  const target = root.$defs?.[name];
  if (!target) throw new Error(`unresolved $ref ${s.$ref}`);
  return deref(target, root);
}

export function typesOf(s: JsonSchema): string[] {
  if (s.type) return Array.isArray(s.type) ? s.type : [s.type];
  if (s.properties || s.additionalProperties !== undefined) return ['object'];
  if (s.items || s.prefixItems) return ['array'];
  return [];
}

const SAFE_CHARS = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_. ');

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = Math.min(s.maxLength ?? minLength + 24, minLength + 24);
  if (s.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-12-31T23:59:59Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (s.format === 'uri')
    return fc.constantFrom(
      'https://example.com/hook',
      'http://127.0.0.1:9/webhooks/x',
      'https://hooks.example.org/a?b=c',
    );
  if (s.format === 'email') return fc.constantFrom('a@example.com', 'b.c@example.org');
  if (s.pattern) {
    return fc
      .stringMatching(new RegExp(s.pattern))
      .filter((v) => v.length >= minLength && v.length <= (s.maxLength ?? Infinity));
  }
  return fc.string({ unit: SAFE_CHARS, minLength, maxLength });
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  let min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
  let max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1000);
  min = Math.max(min, Number.MIN_SAFE_INTEGER);
  max = Math.min(max, Number.MAX_SAFE_INTEGER);
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function objectArb(s: JsonSchema, root: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties ?? {};
  const required = s.required ?? [];
  const arbs = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, arbitraryFor(v, root)]));
  const requiredKeys = required.filter((k) => k in props);
  const optional = Object.keys(props).filter((k) => !requiredKeys.includes(k));
  // Half the time only a few optional fields: schemas with "exactly one of" refinements (a webhook
  // has one target, a job one image source) are then often satisfied.
  const pick = (keys: string[]) => fc.record(Object.fromEntries(keys.map((k) => [k, arbs[k]!])));
  const known = fc.oneof(
    fc.record(arbs, { requiredKeys }),
    fc
      .subarray(optional, { maxLength: Math.min(2, optional.length) })
      .chain((keys) => pick([...requiredKeys, ...keys])),
  );
  const extra = s.additionalProperties;
  if (!extra || extra === true || Object.keys(props).length) return known as fc.Arbitrary<Record<string, unknown>>;
  // A map (`z.record`): keys from propertyNames, values from additionalProperties.
  const key = s.propertyNames
    ? (arbitraryFor(s.propertyNames, root) as fc.Arbitrary<string>)
    : fc.string({ unit: SAFE_CHARS, minLength: 1, maxLength: 12 });
  return fc.dictionary(key, arbitraryFor(extra, root), { maxKeys: 3 });
}

/** Values that conform to `s` as far as JSON Schema can say. */
export function arbitraryFor(schema: JsonSchema, root: JsonSchema = schema): fc.Arbitrary<unknown> {
  const s = deref(schema, root);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => arbitraryFor(a, root)));
  if (s.allOf?.length === 1) return arbitraryFor(s.allOf[0]!, root);
  const types = typesOf(s);
  if (types.length === 0) return fc.constantFrom<unknown>('any', 1, true, null);
  return fc.oneof(
    ...types.map((t): fc.Arbitrary<unknown> => {
      switch (t) {
        case 'string':
          return stringArb(s);
        case 'integer':
          return numberArb(s, true);
        case 'number':
          return numberArb(s, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          if (s.prefixItems) return fc.tuple(...s.prefixItems.map((p) => arbitraryFor(p, root)));
          const minLength = s.minItems ?? 0;
          return fc.array(s.items ? arbitraryFor(s.items, root) : fc.constant(null), {
            minLength,
            maxLength: Math.min(s.maxItems ?? minLength + 3, minLength + 3),
          });
        }
        case 'object':
          return objectArb(s, root);
        default:
          throw new Error(`JSON Schema type ${t} is not supported by the hardening generator`);
      }
    }),
  );
}

function fieldPaths(v: unknown, prefix = '', out = new Set<string>()): Set<string> {
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const p = `${prefix}/${Array.isArray(v) ? '#' : k}`;
      out.add(p);
      fieldPaths(x, p, out);
    }
  }
  return out;
}

/**
 * Up to `count` values that the zod schema itself accepts, sampled from the JSON Schema and picked
 * greedily so that together they use as many different fields as possible (every field present in
 * some sample gets mutated). `extra` candidates (e.g. `{}`) are always considered.
 */
export function validSamples(
  schema: z.ZodType,
  json: JsonSchema,
  count: number,
  extra: unknown[] = [],
  map: (v: unknown) => unknown = (v) => v,
): unknown[] {
  const valid = new Map<string, { value: unknown; paths: Set<string> }>();
  for (const c of [...extra, ...fc.sample(arbitraryFor(json).map(map), { numRuns: 800 })]) {
    const key = JSON.stringify(c);
    if (!valid.has(key) && schema.safeParse(c).success) valid.set(key, { value: c, paths: fieldPaths(c) });
  }
  const pool = [...valid.values()];
  const covered = new Set<string>();
  const out: unknown[] = [];
  while (out.length < count && pool.length) {
    let best = 0;
    let bestGain = -1;
    pool.forEach((c, i) => {
      const gain = [...c.paths].filter((p) => !covered.has(p)).length;
      if (gain > bestGain) {
        best = i;
        bestGain = gain;
      }
    });
    const [pick] = pool.splice(best, 1);
    for (const p of pick!.paths) covered.add(p);
    out.push(pick!.value);
  }
  return out;
}
