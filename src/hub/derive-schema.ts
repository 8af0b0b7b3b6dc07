import type { z } from 'zod';

export type AnyDef = z.core.$ZodTypes['_zod']['def'];

/**
 * How one schema node is read: a replacement for `schema`, or undefined to keep it with its parts
 * derived (`derived` derives a part; `structural` is the node rebuilt from derived parts).
 */
export type Rewrite = (
  schema: z.ZodType,
  def: AnyDef,
  derived: (s: z.core.$ZodType) => z.ZodType,
  structural: () => z.ZodType,
) => z.ZodType | undefined;

/**
 * A function that derives a reading schema from a contract schema, at every depth, through
 * optional, nullable, default, array, record, tuple, union, discriminated union, intersection,
 * lazy and pipe/transform: strict objects become stripping ones (a key the schema does not define
 * is dropped), and `rewrite` may replace any node. Derived once per schema; the schema is left as is.
 */
export function schemaDeriver(rewrite?: Rewrite): <S extends z.ZodType>(schema: S) => S {
  const cache = new WeakMap<z.ZodType, z.ZodType>();
  const derived = <S extends z.ZodType>(schema: S): S => {
    let out = cache.get(schema);
    if (!out) {
      const def = schema.def as AnyDef;
      const d = (s: z.core.$ZodType) => derived(s as z.ZodType);
      const structural = () => rebuild(schema, def, d);
      out = rewrite?.(schema, def, d, structural) ?? structural();
      cache.set(schema, out);
    }
    return out as S;
  };
  return derived;
}

function rebuild(schema: z.ZodType, def: AnyDef, d: (s: z.core.$ZodType) => z.ZodType): z.ZodType {
  const copy = (changes: object) => schema.clone({ ...def, ...changes } as typeof schema.def);
  switch (def.type) {
    case 'object': {
      const shape = Object.fromEntries(Object.entries(def.shape).map(([k, v]) => [k, d(v)]));
      // A strict object's catchall is `never`; without one, unknown keys are stripped.
      const catchall = !def.catchall || def.catchall._zod.def.type === 'never' ? undefined : d(def.catchall);
      return copy({ shape, catchall });
    }
    case 'array':
      return copy({ element: d(def.element) });
    case 'record':
      return copy({ valueType: d(def.valueType) });
    case 'tuple':
      return copy({ items: def.items.map(d), rest: def.rest && d(def.rest) });
    case 'union': // also a discriminated union (its discriminator stays in the def)
      return copy({ options: def.options.map(d) });
    case 'intersection':
      return copy({ left: d(def.left), right: d(def.right) });
    case 'pipe': // also a transform's or preprocess's pipe
      return copy({ in: d(def.in), out: d(def.out) });
    case 'lazy':
      return copy({ getter: () => d(def.getter()) });
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'catch':
    case 'readonly':
      return copy({ innerType: d(def.innerType) });
    default:
      return schema;
  }
}
