// Valid path/query/body samples for one route of the mock hub's route table, and the invalid
// requests made from them by breaking exactly one part.
import fc from 'fast-check';
import { z } from 'zod';
import type { AnyRoute } from '../http/route.ts';
import { toJsonSchema, validSamples, type JsonSchema } from './json-schema.ts';
import { applyMutation, describeMutation, mutationsOf, type Mutation } from './mutations.ts';

export type Part = 'path' | 'query' | 'body';

export interface RequestParts {
  params: Record<string, string>;
  query: Record<string, string>;
  /** undefined: no body sent. */
  body: unknown;
}

export interface InvalidRequest extends RequestParts {
  part: Part;
  what: string;
  mutation?: Mutation;
  /** Sent as-is instead of JSON.stringify(body). */
  rawBody?: string;
}

const SAMPLES = 6;

function bodySchema(route: AnyRoute): z.ZodType | undefined {
  return route.body instanceof z.ZodOptional ? (route.body.unwrap() as z.ZodType) : route.body;
}

/** Query strings carry strings only. */
function stringify(v: unknown): Record<string, string> {
  // fromEntries defines own keys, so a `__proto__` parameter stays a parameter.
  return Object.fromEntries(
    Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)]),
  );
}

export interface RouteInputs {
  route: AnyRoute;
  json: { params?: JsonSchema; query?: JsonSchema; body?: JsonSchema };
  params: Record<string, string>[];
  query: Record<string, string>[];
  body: unknown[];
}

/** Path values that survive URL normalisation; enum params get their allowed values. */
function paramSamples(route: AnyRoute, json: JsonSchema | undefined): Record<string, string>[] {
  if (!route.params || !json) return [{}];
  const props = Object.fromEntries(
    Object.entries(json.properties ?? {}).map(([k, s]) => [
      k,
      s.enum ? fc.constantFrom(...(s.enum as string[])) : fc.stringMatching(/^[a-z0-9]{1,16}$/),
    ]),
  );
  return validSamples(route.params, {}, SAMPLES, fc.sample(fc.record(props), 50)) as Record<string, string>[];
}

const cache = new WeakMap<AnyRoute, RouteInputs>();

/** Sampled once per route and kept (sampling runs zod on hundreds of candidates). */
export function routeInputs(route: AnyRoute): RouteInputs {
  const cached = cache.get(route);
  if (cached) return cached;
  const body = bodySchema(route);
  const json = {
    params: route.params && toJsonSchema(route.params),
    query: route.query && toJsonSchema(route.query),
    body: body && toJsonSchema(body),
  };
  const inputs: RouteInputs = {
    route,
    json,
    params: paramSamples(route, json.params),
    query: route.query
      ? (validSamples(route.query, json.query!, SAMPLES, [{}], stringify) as Record<string, string>[])
      : [{}],
    body: body ? validSamples(body, json.body!, SAMPLES, [{}]) : [undefined],
  };
  for (const part of ['params', 'query', 'body'] as const) {
    if (!inputs[part].length)
      throw new Error(
        `${route.method.toUpperCase()} ${route.path}: no valid ${part} could be generated from its schema; extend hardening/json-schema.ts`,
      );
  }
  cache.set(route, inputs);
  return inputs;
}

const RAW_BODIES = ['hello', '{"a":', "{'single': 1}", '<xml/>', 'NaN', '{"a":1}}', '\u0000\u0001'];
const STRICT_EMPTY: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

/**
 * Every invalid request made from the sampled valid parts by breaking exactly one part, kept only
 * when the route's own schema rejects the broken part (a union may accept what one branch cannot).
 */
export function invalidRequests(inputs: RouteInputs): InvalidRequest[] {
  const { route, json } = inputs;
  const out: InvalidRequest[] = [];
  const seen = new Set<string>();
  const add = (req: InvalidRequest) => {
    const key = JSON.stringify([req.params, req.query, req.body, req.rawBody, req.what]);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(req);
  };
  const params = inputs.params[0]!;
  const query = inputs.query[0]!;
  const body = inputs.body[0];
  const querySchema = route.query ?? z.strictObject({});
  for (const q of inputs.query) {
    for (const m of mutationsOf(q, json.query ?? STRICT_EMPTY)) {
      if (!m.path.length) continue; // a query string is always a map of strings
      const broken = stringify(applyMutation(q, m));
      if (!querySchema.safeParse(broken).success)
        add({ params, query: broken, body, part: 'query', mutation: m, what: describeMutation(m) });
    }
  }
  if (json.body && route.body) {
    for (const b of inputs.body) {
      for (const m of mutationsOf(b, json.body)) {
        const broken = applyMutation(b, m);
        if (!route.body.safeParse(broken).success)
          add({ params, query, body: broken, part: 'body', mutation: m, what: describeMutation(m) });
      }
    }
    for (const rawBody of RAW_BODIES)
      add({ params, query, body: undefined, rawBody, part: 'body', what: `not JSON: ${JSON.stringify(rawBody)}` });
  }
  if (json.params && route.params) {
    for (const p of inputs.params) {
      for (const m of mutationsOf(p, json.params)) {
        if (!m.path.length) continue;
        const broken = stringify(applyMutation(p, m));
        // An empty or dot segment never reaches the route (the URL is normalised first).
        if (
          Object.values(broken).some((v) => v === '' || /^\.+$/.test(v)) ||
          Object.keys(broken).length !== Object.keys(p).length
        )
          continue;
        if (!route.params.safeParse(broken).success)
          add({ params: broken, query, body, part: 'path', mutation: m, what: describeMutation(m) });
      }
    }
  }
  return out;
}

export function urlOf(route: AnyRoute, params: Record<string, string>, query: Record<string, string>): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}
