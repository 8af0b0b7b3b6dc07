import { z } from 'zod';

const fileParams = ['namespace', 'repo', 'revision', 'path'].map((name) => ({
  name,
  in: 'path',
  required: true,
  schema: z.toJSONSchema(z.string()),
}));

function fileOperation(method: 'get' | 'head', prefix: string) {
  return {
    tags: ['repos'],
    summary: `${method === 'get' ? 'Download' : 'Inspect'} a file${prefix ? ` of a ${prefix.slice(0, -2)}` : ''} registered on the mock hub (public, HTTP ranges)`,
    operationId: `${method}${prefix ? prefix[0]!.toUpperCase() + prefix.slice(1, -1) : 'Model'}File`,
    security: [],
    parameters: [
      ...fileParams,
      { name: 'Range', in: 'header', required: false, schema: { type: 'string', pattern: '^bytes=\\d*-\\d*$' } },
      {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'ETags (or *): 304 when one names the file',
        schema: { type: 'string' },
      },
      {
        name: 'If-Range',
        in: 'header',
        required: false,
        description: "the ETag the client holds: the range only while it is the file's, else the whole file",
        schema: { type: 'string' },
      },
    ],
    responses: {
      200: {
        description: 'The whole file',
        headers: { ETag: { schema: { type: 'string' } }, 'Accept-Ranges': { schema: { type: 'string' } } },
        content: { 'application/octet-stream': {} },
      },
      206: {
        description: 'The requested byte range',
        headers: { 'Content-Range': { schema: { type: 'string' } } },
        content: { 'application/octet-stream': {} },
      },
      304: { description: 'If-None-Match matched the ETag' },
      404: {
        description: 'No such file or revision',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
      416: {
        description: 'Range not satisfiable',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
    'x-mock-extension': true,
  };
}

/** Paths of the repo file routes (mounted outside the route table: they stream bytes, not JSON). */
export function repoFileOperations(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const prefix of ['', 'datasets/', 'spaces/']) {
    out[`/${prefix}{namespace}/{repo}/resolve/{revision}/{path}`] = {
      get: fileOperation('get', prefix),
      head: fileOperation('head', prefix),
    };
  }
  return out;
}
