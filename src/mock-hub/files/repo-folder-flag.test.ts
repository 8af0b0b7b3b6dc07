import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../cli/command-line.ts';
import { parseHubArgs } from '../cli-args.ts';
import { parseRepoFolder } from './repo-folder-flag.ts';

describe('--repo owner/name=folder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'repo-flag-'));
  writeFileSync(path.join(dir, 'file.txt'), 'x');
  writeFileSync(path.join(dir, 'config.json'), '{}');
  writeFileSync(path.join(dir, 'diffusion_pytorch_model.safetensors'), '');

  it('takes every --repo, in both spellings, resolving the folder', () => {
    expect(parseHubArgs(['--port', '1', '--repo', `a/b=${dir}`, `--repo=c/d.e=${dir}`]).repoFolders).toEqual([
      { repoId: 'a/b', dir },
      { repoId: 'c/d.e', dir },
    ]);
    expect(parseRepoFolder('a/b=.', dir)).toEqual({ repoId: 'a/b', dir });
    expect(parseHubArgs([]).repoFolders).toBeUndefined();
  });

  it('names the flag and what is wrong', () => {
    expect(() => parseHubArgs(['--repo', dir])).toThrow(
      new UsageError(`--repo ${dir}: expected <owner/name>=<folder>`),
    );
    expect(() => parseHubArgs(['--repo', `nope=${dir}`])).toThrow(/"nope" is not a repository id/);
    expect(() => parseHubArgs(['--repo', `a/..=${dir}`])).toThrow(/is not a repository id/);
    expect(() => parseHubArgs(['--repo', `a/b=${path.join(dir, 'file.txt')}`])).toThrow(/file\.txt is not a folder/);
    expect(() => parseHubArgs(['--repo'])).toThrow(/--repo needs a value/);
  });

  it('refuses a missing folder (it is not the current one), a folder without a checkpoint, and a repository given twice', () => {
    expect(() => parseHubArgs(['--repo', 'a/b='])).toThrow(new UsageError('--repo a/b=: no folder after "="'));
    const empty = mkdtempSync(path.join(tmpdir(), 'repo-flag-empty-'));
    mkdirSync(path.join(empty, 'transformer'));
    writeFileSync(path.join(empty, 'transformer', 'config.json'), '{}');
    expect(() => parseHubArgs(['--repo', `a/b=${empty}`])).toThrow(
      new UsageError(
        `--repo a/b=${empty}: no checkpoint in ${empty} (config.json with diffusion_pytorch_model.safetensors or its .index.json, in the folder or a subfolder such as transformer/)`,
      ),
    );
    // the diffusers layout: the checkpoint in a subfolder, sharded
    writeFileSync(path.join(empty, 'transformer', 'diffusion_pytorch_model.safetensors.index.json'), '{}');
    expect(parseRepoFolder(`a/b=${empty}`)).toEqual({ repoId: 'a/b', dir: empty });
    expect(() => parseHubArgs(['--repo', `a/b=${dir}`, '--repo', `c/d=${dir}`, '--repo', `a/b=${empty}`])).toThrow(
      new UsageError('--repo a/b is given twice'),
    );
  });
});
