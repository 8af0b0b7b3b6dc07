// The request headers a stored delivery keeps: all of them, less those that carry a secret and
// those that only describe the connection.
const DROPPED = new Set([
  'x-webhook-secret',
  'authorization',
  'proxy-authorization',
  'cookie',
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

const HTTP_WHITESPACE_ENDS = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * From a Fetch `Headers`, or from Node's raw header list (`[name, value, name, value, ...]`, as
 * received), which gives the same result (names lower-cased, values trimmed, repeated headers joined
 * with ", ") without building a `Headers` object per delivery.
 */
export function storedHeaders(headers: Headers | readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      if (!DROPPED.has(name)) out[name] = value;
    });
    return out;
  }
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = headers[i]!.toLowerCase();
    // HTTP/2 pseudo-headers (`:path`, ...) are not headers.
    if (DROPPED.has(name) || name.startsWith(':')) continue;
    const value = headers[i + 1]!.replace(HTTP_WHITESPACE_ENDS, '');
    out[name] = Object.hasOwn(out, name) ? `${out[name]}, ${value}` : value;
  }
  return out;
}
