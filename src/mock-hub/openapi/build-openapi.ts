import { z } from 'zod';
import { ErrorBody } from '../../hub/schemas/index.ts';
import { isWrite } from '../http/register-routes.ts';
import type { AnyRoute } from '../http/route.ts';
import { repoFileOperations } from './repo-file-operations.ts';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

type ObjectSchema = { properties?: Record<string, JsonSchema>; required?: string[] };

/**
 * Parameter schemas come from the parsed (output) side, which states what the value means
 * (`p`: integer 0..2^53-1, `applyToAll`: boolean, defaults) rather than "a string of digits";
 * whether one is required comes from the input side.
 */
function parameters(schema: z.ZodObject | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const input = jsonSchema(schema, 'input') as ObjectSchema;
  const json = { ...(jsonSchema(schema, 'output') as ObjectSchema), required: input.required };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: s,
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
  }));
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request: the error names the field',
  401: 'No or unknown access token',
  403: 'Read token on a mutation, not a member, token revoked for the org, plan or role too low',
  404: 'Unknown id',
  409: 'Conflict with the current state',
  413: 'Body over 1 MB',
  500: 'The mock hub broke its own schema (a bug)',
};

function operation(route: AnyRoute) {
  const errors = new Set<number>([500, ...(route.errors ?? [])]);
  if (route.params || route.query || route.body) errors.add(400);
  if (route.auth !== 'none') errors.add(401);
  if (route.auth !== 'none' && isWrite(route)) errors.add(403);
  // Unknown org 404; not a member, revoked token, plan or role too low 403.
  if (route.auth === 'org') for (const s of [403, 404]) errors.add(s);
  if (route.body) errors.add(413);
  const body = route.body instanceof z.ZodOptional ? (route.body.unwrap() as z.ZodType) : route.body;
  const gate = route.gate;
  const gateText = gate
    ? [gate.planMessage, gate.admin ? 'Needs the org admin role.' : ''].filter(Boolean).join('. ')
    : '';
  return {
    tags: [route.tag],
    summary: route.summary,
    ...(route.description || gateText
      ? { description: [route.description, gateText].filter(Boolean).join('\n\n') }
      : {}),
    operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ?? '').toUpperCase())}`,
    security: route.auth === 'none' ? [] : route.auth === 'optional' ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }],
    parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
    ...(body
      ? {
          requestBody: {
            required: !(route.body instanceof z.ZodOptional),
            content: { 'application/json': { schema: jsonSchema(body, 'input') } },
          },
        }
      : {}),
    responses: {
      200: {
        description: 'OK',
        headers: Object.fromEntries(
          Object.entries({ 'X-Request-Id': 'Id of this request, also on errors', ...route.responseHeaders }).map(
            ([name, description]) => [name, { description, schema: { type: 'string' } }],
          ),
        ),
        content: { [route.raw?.contentType ?? 'application/json']: { schema: jsonSchema(route.response, 'output') } },
      },
      ...Object.fromEntries(
        [...errors].sort().map((s) => [
          s,
          {
            description: STATUS_TEXT[s] ?? 'Error',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
    ...(route.extension ? { 'x-mock-extension': true } : {}),
    ...(typeof route.extension === 'object' ? { 'x-real-hub': route.extension.realHub } : {}),
  };
}

/** OpenAPI 3.1.0 document of every route, generated from the same table that registers them. */
export function buildOpenApi(routes: readonly AnyRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method] = operation(route);
  Object.assign(paths, repoFileOperations());
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hub API (mock hub)',
      version: '0.0.1',
      description:
        'Generated from the zod schemas in src/hub/schemas. Operations marked x-mock-extension are not in the spec.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: jsonSchema(ErrorBody, 'output') },
    },
  };
}
