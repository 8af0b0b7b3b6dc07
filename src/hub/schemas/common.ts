import { z } from 'zod';

/** `<id24>`: exactly 24 lowercase hexadecimal characters. */
export const Id24 = z.string().regex(/^[0-9a-f]{24}$/, 'must be 24 lowercase hexadecimal characters');

/** 24 hexadecimal characters, either case (paper claim ids). */
export const Hex24AnyCase = z.string().regex(/^[0-9a-fA-F]{24}$/, 'must be 24 hexadecimal characters');

/** `<timestamp>`: ISO 8601 UTC date-time ending in `Z`, optional fractional seconds. */
export const Timestamp = z.iso.datetime({
  offset: false,
  local: false,
  message: 'must be an ISO 8601 UTC timestamp ending in Z',
});

export const MAX_PAGE = 9007199254740991;

/** Query-string integer: accepts a number or a string of digits (query values arrive as strings). */
export function queryInt(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .union([z.number(), z.string().regex(/^\d+$/, 'must be a non-negative integer').transform(Number)])
    .pipe(z.number().int('must be an integer').min(min).max(max));
}

/** Query-string boolean: `true`/`false` (or a real boolean from typed callers). */
export const QueryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')])
  .pipe(z.boolean());

/** The hub's error body. */
export const ErrorBody = z.object({ error: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Bodies the spec leaves "not shown": the hub answers with a JSON object we do not rely on. */
export const AnyObject = z.looseObject({});
export const EmptyObject = z.strictObject({});

const NAME_SETS = new WeakSet<z.core.$ZodType>();
/**
 * Marks a schema as a set of names (a map of name to null, or a list of names). The contract keeps
 * its one shape; readers of the real hub take either (it sends job `secrets` both ways).
 */
export function nameSet<S extends z.ZodType>(schema: S): S {
  NAME_SETS.add(schema);
  return schema;
}
export const isNameSet = (schema: z.core.$ZodType) => NAME_SETS.has(schema);
