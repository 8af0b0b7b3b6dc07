import { z } from 'zod';
import { schemaDeriver, type AnyDef } from './derive-schema.ts';
import { formatIssuePath, type HubIssue } from './errors.ts';
import { lenientResponse } from './lenient-response.ts';
import { isNameSet } from './schemas/common.ts';

const NUMERIC = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const HAS_OFFSET = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;
/** The contract's own form (UTC, seconds, `Z`): kept as it is. */
const UTC_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
/** Unions of these are open values (a flag, a state): an unknown string reads as itself. */
const SCALARS = new Set(['boolean', 'literal', 'enum', 'string', 'null']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A numeric string where a number is expected reads as the number. */
const numberFromString = (v: unknown) => (typeof v === 'string' && NUMERIC.test(v) ? Number(v) : v);

/** A date-time the contract refuses (another offset, no seconds, no offset at all: UTC) reads as its UTC `Z` form. */
function utcTimestamp(v: unknown): unknown {
  if (typeof v !== 'string' || UTC_Z.test(v) || !ISO_DATE_TIME.test(v)) return v;
  const t = Date.parse(HAS_OFFSET.test(v) ? v : `${v}Z`);
  return Number.isFinite(t) ? new Date(t).toISOString() : v;
}

/** Names sent as a list where a map of name to null is expected, or as a map where a list is. */
function namesAs(def: AnyDef) {
  return (v: unknown) => {
    if (def.type === 'record' && Array.isArray(v) && v.every((n) => typeof n === 'string'))
      return Object.fromEntries(v.map((n) => [n, null]));
    if (def.type === 'record' && isPlainObject(v)) return Object.fromEntries(Object.keys(v).map((n) => [n, null]));
    if (def.type === 'array' && isPlainObject(v)) return Object.keys(v);
    return v;
  };
}

/** Keys whose `null` was read as absent come out as `undefined`; they leave the object. */
function withoutUndefined<T>(v: T): T {
  if (!isPlainObject(v)) return v;
  for (const [k, x] of Object.entries(v)) if (x === undefined) delete v[k];
  return v;
}

const tolerant = schemaDeriver((schema, def, derived, structural) => {
  if (isNameSet(schema)) return z.preprocess(namesAs(def), structural());
  switch (def.type) {
    case 'enum':
      return Object.values(def.entries).every((v) => typeof v === 'string')
        ? z.string()
        : z.union([schema, z.string()]);
    case 'union':
      return def.options.every((o) => SCALARS.has(o._zod.def.type)) && !('discriminator' in def)
        ? z.union([...def.options.map(derived), z.string()])
        : undefined;
    case 'number':
      return z.preprocess(numberFromString, schema);
    case 'string':
      return (def as { format?: string }).format === 'datetime' ? z.preprocess(utcTimestamp, schema) : undefined;
    case 'optional':
      // `null` for a field the spec has as optional (and not nullable) reads as absent.
      return (def.innerType as z.ZodType).safeParse(null).success
        ? undefined
        : z.preprocess((v) => (v === null ? undefined : v), structural());
    case 'object':
      return structural().transform(withoutUndefined);
    default:
      return undefined;
  }
});

/**
 * The schema the client reads every response with: `lenientResponse`'s (unknown keys dropped) and
 * also what the real hub sends that the spec's snapshot does not foresee: enum values outside the
 * spec's list (kept as the string they are), `null` for an optional field (absent), a set of names
 * as a list or a map (see `nameSet`), numbers as numeric strings, date-times with another offset or
 * no seconds (read as their UTC `Z` form). Anything else off-schema still fails. Derived from the
 * contract schema once; the mock hub keeps validating its answers with the strict schema itself.
 * The static type stays the contract's: an enum field may hold a string outside its list at run
 * time, so every lookup by enum value has a fallback (see docs/decisions.md, "Reads that never dead-end").
 */
export function tolerantResponse<S extends z.ZodType>(schema: S): S {
  return tolerant(schema);
}

/**
 * Reads `value` as `tolerantResponse(schema)` does. An answer the lenient reader reads (nearly
 * every one) reads the same through both, so it takes that faster path; the tolerant one reads the rest.
 */
export function tolerantParse<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  const fast = lenientResponse(schema).safeParse(value);
  return fast.success ? fast : tolerantResponse(schema).safeParse(value);
}

/** A list item that even the tolerant reader could not read: kept as a row, never dropped. */
export interface UnreadableItem {
  readonly unreadable: true;
  /** The item's JSON as the hub sent it. */
  raw: unknown;
  /** Which fields and why (`status.stage: Invalid input ...`). */
  issues: HubIssue[];
  /** Every top-level field that could be read on its own, read as the item's schema reads it. */
  fields: Record<string, unknown>;
}
export type Readable<T> = T | UnreadableItem;

export const isUnreadable = (v: unknown): v is UnreadableItem =>
  isPlainObject(v) && v.unreadable === true && 'raw' in v && Array.isArray(v.issues);

export function issuesOf(error: z.ZodError): HubIssue[] {
  return error.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message }));
}

/** The object shapes an item may have (each option of a union). */
function shapesOf(schema: z.core.$ZodType): Record<string, z.core.$ZodType>[] {
  const def = schema._zod.def as AnyDef;
  switch (def.type) {
    case 'object':
      return [def.shape];
    case 'union':
      return def.options.flatMap(shapesOf);
    case 'pipe':
      return shapesOf(def.in);
    case 'lazy':
      return shapesOf(def.getter());
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return shapesOf(def.innerType);
    default:
      return [];
  }
}

/** The fields of `raw` that read on their own, for the shape (union option) that reads the most of them. */
export function readableFields(schema: z.ZodType, raw: unknown): Record<string, unknown> {
  if (!isPlainObject(raw)) return {};
  let best: Record<string, unknown> = {};
  for (const shape of shapesOf(schema)) {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(raw)) {
      const field = Object.hasOwn(shape, key) ? tolerantParse(shape[key] as z.ZodType, value) : undefined;
      if (field?.success && field.data !== undefined) fields[key] = field.data;
    }
    if (Object.keys(fields).length > Object.keys(best).length) best = fields;
  }
  return best;
}

/** One item read tolerantly, or kept as unreadable with why. */
export function readItem<S extends z.ZodType>(schema: S, raw: unknown): Readable<z.output<S>> {
  const read = tolerantParse(schema, raw);
  if (read.success) return read.data;
  return { unreadable: true, raw, issues: issuesOf(read.error), fields: readableFields(schema, raw) };
}

/** A list read item by item: one record that cannot be read never takes the others down. */
export function itemwise<S extends z.ZodType>(item: S) {
  return z.array(z.unknown()).transform((items) => items.map((raw) => readItem(item, raw)));
}

/** The items of a list the test knows to be all readable; fails naming the first that is not. */
export function allReadable<T>(list: readonly Readable<T>[]): T[] {
  const { items, unreadable } = splitReadable(list);
  if (unreadable[0]) throw new Error(`an item could not be read: ${JSON.stringify(unreadable[0].issues)}`);
  return items;
}

/** The readable items and the unreadable ones, apart (pages list the first and show the others as rows of their own). */
export function splitReadable<T>(list: readonly Readable<T>[] | undefined): {
  items: T[];
  unreadable: UnreadableItem[];
} {
  const items: T[] = [];
  const unreadable: UnreadableItem[] = [];
  for (const x of list ?? [])
    if (isUnreadable(x)) unreadable.push(x);
    else items.push(x);
  return { items, unreadable };
}
