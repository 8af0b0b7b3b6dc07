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

export function storedHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!DROPPED.has(name.toLowerCase())) out[name.toLowerCase()] = value;
  });
  return out;
}
