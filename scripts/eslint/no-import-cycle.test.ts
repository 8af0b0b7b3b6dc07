import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import noImportCycle from './no-import-cycle.js';

const dir = mkdtempSync(path.join(tmpdir(), 'import-cycle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** lints `name` among `files` (written to a folder of their own) with the rule alone */
function lint(files: Record<string, string>, name: string) {
  const folder = mkdtempSync(path.join(dir, 'case-'));
  for (const [f, text] of Object.entries(files)) writeFileSync(path.join(folder, f), text);
  const filename = path.join(folder, name);
  const linter = new Linter({ configType: 'flat', cwd: folder });
  return linter.verify(
    files[name]!,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser },
        plugins: { local: { rules: { 'no-import-cycle': noImportCycle } } },
        rules: { 'local/no-import-cycle': 'error' },
      },
    ],
    filename,
  );
}

describe('no-import-cycle', () => {
  it('reports a circle held together by type-only imports, naming its route', () => {
    const messages = lint(
      {
        'a.ts': "import type { B } from './b.ts';\nexport interface A { b?: B }\n",
        'b.ts': "import { type A } from './a.ts';\nexport interface B { a?: A }\n",
      },
      'a.ts',
    );
    expect(messages.map((m) => m.message)).toEqual(['Import circle: a.ts -> b.ts -> a.ts']);
  });

  it('reports a longer circle through a re-export', () => {
    const messages = lint(
      {
        'a.ts': "export { c } from './b.ts';\nexport const a = 1;\n",
        'b.ts': "export { c } from './c.ts';\n",
        'c.ts': "import { a } from './a.ts';\nexport const c = a + 1;\n",
      },
      'a.ts',
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]!.message).toBe('Import circle: a.ts -> b.ts -> c.ts -> a.ts');
  });

  it('passes imports that go one way', () => {
    const messages = lint(
      {
        'a.ts': "import type { B } from './b.ts';\nimport { c } from './c.ts';\nexport const a: B = { c };\n",
        'b.ts': "import { c } from './c.ts';\nexport interface B { c: typeof c }\n",
        'c.ts': 'export const c = 1;\n',
      },
      'a.ts',
    );
    expect(messages).toEqual([]);
  });
});
