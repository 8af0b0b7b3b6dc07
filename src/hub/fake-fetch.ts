import type { FetchLike } from './transport.ts';

export interface RecordedCall {
  url: URL;
  method: string;
  headers: Headers;
  body: unknown;
}

type Reply = Response | (() => Response) | Error;

/** Test double for `fetch`: answers from a queue (the last reply repeats) and records calls. */
export function fakeFetch(...replies: Reply[]) {
  const calls: RecordedCall[] = [];
  const fetch: FetchLike = async (input, init) => {
    calls.push({
      url: new URL(input),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    const reply = replies.length > 1 ? replies.shift()! : replies[0]!;
    if (reply instanceof Error) throw reply;
    return typeof reply === 'function' ? reply() : reply.clone();
  };
  return { fetch, calls };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}
