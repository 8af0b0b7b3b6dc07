/**
 * Finds the first `limit` top-level objects of a JSON array as its text streams in, without
 * parsing the rest: string and escape state are tracked so braces inside strings do not count.
 */
export function createArrayPrefixScanner(limit: number) {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let partial = '';
  let capturing = false;
  const items: string[] = [];
  return {
    get done() {
      return items.length >= limit;
    },
    items: () => items,
    push(text: string): void {
      if (items.length >= limit) return;
      let start = capturing ? 0 : -1;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 92 /* \ */) escaped = true;
          else if (c === 34 /* " */) inString = false;
          continue;
        }
        if (c === 34) inString = true;
        else if (c === 123 /* { */ || c === 91 /* [ */) {
          depth++;
          if (depth === 2 && c === 123) {
            capturing = true;
            start = i;
            partial = '';
          }
        } else if (c === 125 /* } */ || c === 93 /* ] */) {
          if (depth === 2 && capturing && c === 125) {
            items.push(partial + text.slice(start, i + 1));
            capturing = false;
            partial = '';
            start = -1;
            if (items.length >= limit) return;
          }
          depth--;
        }
      }
      if (capturing && start >= 0) partial += text.slice(start);
    },
  };
}
