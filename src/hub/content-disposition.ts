/**
 * Filename from a `Content-Disposition` header, preferring RFC 5987/6266 `filename*`
 * (`UTF-8''name%20here.json`) over plain `filename`. Returns null when there is none.
 * Directory parts are dropped: the value comes from the network and ends up in a download.
 */
export function filenameFromContentDisposition(header: string | null): string | null {
  if (!header) return null;
  const params = parseParams(header);
  const extended = params.get('filename*');
  if (extended !== undefined) {
    const decoded = decodeExtValue(extended);
    if (decoded) return baseName(decoded);
  }
  const plain = params.get('filename');
  return plain ? baseName(plain) : null;
}

function parseParams(header: string): Map<string, string> {
  const params = new Map<string, string>();
  const re = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const m of header.matchAll(re)) {
    const name = m[1]!.toLowerCase();
    let value = m[2]!.trim();
    if (value.startsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    if (!params.has(name)) params.set(name, value);
  }
  return params;
}

function decodeExtValue(value: string): string | null {
  const m = /^([\w!#$%&+^`{}~-]*)'[\w-]*'(.*)$/.exec(value);
  if (!m) return null;
  const charset = m[1]!.toLowerCase();
  const encoded = m[2]!;
  try {
    if (charset === 'utf-8' || charset === '') return decodeURIComponent(encoded);
    if (charset === 'iso-8859-1') {
      return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  } catch {
    return null;
  }
  return null;
}

function baseName(name: string): string | null {
  const base = name.split(/[/\\]/).pop()?.trim() ?? '';
  return base && base !== '.' && base !== '..' ? base : null;
}
