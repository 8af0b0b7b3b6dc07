import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRepoFolder, repoFolderFlags } from './repo-folder-flag.ts';

describe('--repo owner/name=folder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'repo-flag-'));
  writeFileSync(path.join(dir, 'file.txt'), 'x');

  it('takes every --repo, in both spellings, resolving the folder', () => {
    expect(repoFolderFlags(['--port', '1', '--repo', `a/b=${dir}`, `--repo=c/d.e=${dir}`])).toEqual([
      { repoId: 'a/b', dir },
      { repoId: 'c/d.e', dir },
    ]);
    expect(parseRepoFolder('a/b=.', dir)).toEqual({ repoId: 'a/b', dir });
  });

  it('names the flag and what is wrong', () => {
    expect(() => parseRepoFolder(dir)).toThrow(/--repo .*: expected <owner\/name>=<folder>/);
    expect(() => parseRepoFolder(`nope=${dir}`)).toThrow(/"nope" is not a repository id/);
    expect(() => parseRepoFolder(`a/..=${dir}`)).toThrow(/is not a repository id/);
    expect(() => parseRepoFolder(`a/b=${path.join(dir, 'file.txt')}`)).toThrow(/file\.txt is not a folder/);
    expect(() => repoFolderFlags(['--repo'])).toThrow(/expected <owner\/name>=<folder>/);
  });
});
