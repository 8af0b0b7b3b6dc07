import type { z } from 'zod';

type AnyDef = z.core.$ZodTypes['_zod']['def'];

const cache = new WeakMap<z.ZodType, z.ZodType>();

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
  let lenient = cache.get(schema);
  if (!lenient) {
    lenient = derive(schema);
    cache.set(schema, lenient);
  }
  return lenient as S;
}

function derive(schema: z.ZodType): z.ZodType {
  const def = schema.def as AnyDef;
  const l = (s: z.core.$ZodType) => lenientResponse(s as z.ZodType);
  const copy = (changes: object) => schema.clone({ ...def, ...changes } as typeof schema.def);
  switch (def.type) {
    case 'object': {
      const shape = Object.fromEntries(Object.entries(def.shape).map(([k, v]) => [k, l(v)]));
      // A strict object's catchall is `never`; without one, unknown keys are stripped.
      const catchall = !def.catchall || def.catchall._zod.def.type === 'never' ? undefined : l(def.catchall);
      return copy({ shape, catchall });
    }
    case 'array':
      return copy({ element: l(def.element) });
    case 'record':
      return copy({ valueType: l(def.valueType) });
    case 'tuple':
      return copy({ items: def.items.map(l), rest: def.rest && l(def.rest) });
    case 'union': // also a discriminated union (its discriminator stays in the def)
      return copy({ options: def.options.map(l) });
    case 'intersection':
      return copy({ left: l(def.left), right: l(def.right) });
    case 'pipe': // also a transform's or preprocess's pipe
      return copy({ in: l(def.in), out: l(def.out) });
    case 'lazy':
      return copy({ getter: () => l(def.getter()) });
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'catch':
    case 'readonly':
      return copy({ innerType: l(def.innerType) });
    default:
      return schema;
  }
}
