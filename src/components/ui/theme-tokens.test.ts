import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../', import.meta.url));
const css = readFileSync(path.join(src, 'index.css'), 'utf8');

/** the custom properties a CSS block sets */
function declared(selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`);
  const block = css.slice(start, css.indexOf('}', start));
  return new Map([...block.matchAll(/^\s*(--[\w-]+):\s*([^;]+);/gm)].map((m) => [m[1]!, m[2]!]));
}

const light = declared(':root');
const dark = declared('.dark');
const tokens = declared('@theme inline');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(path.join(dir, e.name))
      : /\.tsx?$/.test(e.name) && !e.name.includes('.test.')
        ? [path.join(dir, e.name)]
        : [],
  );
}

describe('theme tokens', () => {
  it('every colour utility names a token whose light value is set, and dark overrides only those', () => {
    expect(tokens.size).toBeGreaterThan(10);
    for (const [name, value] of tokens) {
      expect(name).toMatch(/^--color-/);
      expect(value).toBe(`var(${name.replace('--color-', '--')})`);
      expect(light.has(name.replace('--color-', '--')), name).toBe(true);
    }
    for (const name of dark.keys()) expect(light.has(name), `.dark sets ${name}, which :root does not`).toBe(true);
  });

  it('the shared components, the app shell and the preview say what a colour is for: no dark: variant and no raw palette colour', () => {
    const offenders = ['components', 'app', 'features/preview'].flatMap((dir) =>
      sourceFiles(path.join(src, dir)).flatMap((file) =>
        [
          ...readFileSync(file, 'utf8').matchAll(
            /\b(dark:[\w:-]+|(?:bg|text|border|ring|outline|fill|divide)-(?:slate|gray|amber|red|emerald|green|sky)-\d+)/g,
          ),
        ].map((m) => `${path.relative(src, file)}: ${m[1]}`),
      ),
    );
    expect(offenders).toEqual([]);
  });
});
