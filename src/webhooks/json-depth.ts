// How deep a JSON text nests, read as text without recursion: a payload nested deeper than a
// renderer's stack (JSON.stringify recurses) is refused before it is stored rather than failing later.

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** True when `text` opens more than `limit` arrays and objects inside one another (strings skipped). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === BACKSLASH) i++;
      else if (ch === QUOTE) inString = false;
    } else if (ch === QUOTE) inString = true;
    else if (ch === OPEN_ARRAY || ch === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (ch === CLOSE_ARRAY || ch === CLOSE_OBJECT) depth--;
  }
  return false;
}
