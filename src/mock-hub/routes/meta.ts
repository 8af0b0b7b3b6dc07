import { z } from 'zod';
import { defineRoute } from '../http/route.ts';

const Health = z.strictObject({ ok: z.literal(true) });
const OpenApiDoc = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

export function metaRoutes(doc: () => object) {
  return [
    defineRoute({
      method: 'get',
      path: '/api/health',
      tag: 'docs',
      auth: 'none',
      extension: 'tooling',
      summary: 'Liveness probe',
      response: Health,
      handler: () => ({ ok: true as const }),
    }),
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      tag: 'docs',
      auth: 'none',
      extension: 'tooling',
      summary: 'This OpenAPI 3.1.0 document, generated from the route table',
      response: OpenApiDoc,
      handler: () => doc() as z.input<typeof OpenApiDoc>,
    }),
  ];
}
