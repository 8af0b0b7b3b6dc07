import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../cli/command-line.ts';
import { parseHubArgs } from '../cli-args.ts';
import { parseRepoFolder } from './repo-folder-flag.ts';

describe('--repo owner/name=folder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'repo-flag-'));
  writeFileSync(path.join(dir, 'file.txt'), 'x');

  it('takes every --repo, in both spellings, resolving the folder', () => {
    expect(parseHubArgs(['--port', '1', '--repo', `a/b=${dir}`, `--repo=c/d.e=${dir}`]).repoFolders).toEqual([
      { repoId: 'a/b', dir },
      { repoId: 'c/d.e', dir },
    ]);
    expect(parseRepoFolder('a/b=.', dir)).toEqual({ repoId: 'a/b', dir });
    expect(parseHubArgs([]).repoFolders).toBeUndefined();
  });

  it('names the flag and what is wrong', () => {
    expect(() => parseHubArgs(['--repo', dir])).toThrow(new UsageError(`--repo ${dir}: expected <owner/name>=<folder>`));
    expect(() => parseHubArgs(['--repo', `nope=${dir}`])).toThrow(/"nope" is not a repository id/);
    expect(() => parseHubArgs(['--repo', `a/..=${dir}`])).toThrow(/is not a repository id/);
    expect(() => parseHubArgs(['--repo', `a/b=${path.join(dir, 'file.txt')}`])).toThrow(/file\.txt is not a folder/);
    expect(() => parseHubArgs(['--repo'])).toThrow(/--repo needs a value/);
  });
});
