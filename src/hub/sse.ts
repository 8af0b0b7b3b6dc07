/**
 * The data of each server-sent event in `body` (its `data:` lines joined by newlines), in order.
 * Comments (`: keep-alive`) and other fields are skipped. Leaving the loop early cancels the body,
 * which closes the connection.
 */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (line === '') {
          if (data.length) yield data.join('\n');
          data = [];
          continue;
        }
        const colon = line.indexOf(':');
        if (colon === 0) continue;
        const field = colon < 0 ? line : line.slice(0, colon);
        if (field === 'data') data.push(colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, ''));
      }
    }
    // A stream may end without the blank line after its last event.
    const last = buffer.replace(/\r$/, '');
    if (last.startsWith('data:')) data.push(last.slice(5).replace(/^ /, ''));
    if (data.length) yield data.join('\n');
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
