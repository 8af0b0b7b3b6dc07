import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenLinks, headingAnchors, markdownFiles } from './docs-links.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('documentation links', () => {
  it('every relative link and image in README.md, docs/ and the code READMEs points to an existing file and heading', () => {
    const files = markdownFiles(root);
    expect(files.map((f) => f.slice(root.length))).toContain('docs/decisions.md');
    expect(files.flatMap((file) => brokenLinks(file, root))).toEqual([]);
  });

  it("reports a missing file, a missing heading and a missing image, and accepts GitHub's anchors", () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-links-'));
    mkdirSync(join(dir, 'docs'));
    writeFileSync(
      join(dir, 'docs', 'a.md'),
      '# A\n\n## Benchmark (`npm run bench -- model`)\n\n## Usage\n\n## Usage\n',
    );
    writeFileSync(
      join(dir, 'README.md'),
      [
        '[ok](docs/a.md#benchmark-npm-run-bench----model) [ok](docs/a.md#usage-1) [ok](https://example.test/x.md)',
        '[gone](docs/b.md) [no heading](docs/a.md#usage-2) ![gone](docs/shot.png) `[code](not/a/link.md)`',
      ].join('\n'),
    );
    expect(brokenLinks(join(dir, 'README.md'), dir)).toEqual([
      'README.md: docs/b.md',
      'README.md: docs/a.md#usage-2',
      'README.md: docs/shot.png',
    ]);
  });

  it('numbers repeated headings the way GitHub does', () => {
    expect([...headingAnchors('# Run\n## Run\n### Spec-only mode\n')]).toEqual(['run', 'run-1', 'spec-only-mode']);
  });
});
