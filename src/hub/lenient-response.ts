import type { z } from 'zod';
import { schemaDeriver } from './derive-schema.ts';

const lenient = schemaDeriver();

/**
 * The schema the client reads a response with: `schema` with every strict object turned into a
 * stripping one, at every depth. The real hub sends more than the spec shows (its Job also has
 * `labels` and `initiator`, which huggingface_hub's JobInfo reads); a key the schema does not
 * define is dropped, so the data is still exactly the schema's output. Everything the schema does
 * define stays checked (types, enums, patterns, required keys, refinements). Loose objects stay
 * loose: they keep unknown keys on purpose. The mock hub validates its own answers with the strict
 * schema itself (the contract). Derived once per schema.
 */
export function lenientResponse<S extends z.ZodType>(schema: S): S {
  return lenient(schema);
}
