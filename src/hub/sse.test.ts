import { describe, expect, it } from 'vitest';
import { sseData } from './sse.ts';

function body(text: string, chunkSize: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, (at += chunkSize)));
    },
  });
}

async function all(text: string, chunkSize = 3) {
  const out: string[] = [];
  for await (const d of sseData(body(text, chunkSize))) out.push(d);
  return out;
}

describe('sseData', () => {
  it('joins multi-line data, skips comments and other fields, and decodes UTF-8 split across chunks', async () => {
    const text = ': hello\nevent: log\nid: 1\ndata: first\ndata:second\n\nretry: 10\n\ndata: é ✓\n\n';
    for (const size of [1, 2, 5, 1000]) expect(await all(text, size)).toEqual(['first\nsecond', 'é ✓']);
  });

  it('keeps a last event the stream ended without a blank line after', async () => {
    expect(await all('data: a\n\ndata: b')).toEqual(['a', 'b']);
    expect(await all('data: a\r\n\r\ndata: b\r\n')).toEqual(['a', 'b']);
  });
});
