// `--repo <owner/name>=<folder>`: a local checkpoint folder served as a hub repository.
import { statSync } from 'node:fs';
import path from 'node:path';

const REPO_ID = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/;

export interface RepoFolder {
  repoId: string;
  dir: string;
}

/** parses one `--repo` value; throws a message naming the flag and what is wrong */
export function parseRepoFolder(value: string, cwd = process.cwd()): RepoFolder {
  const eq = value.indexOf('=');
  if (eq < 0) throw new Error(`--repo ${value}: expected <owner/name>=<folder>`);
  const repoId = value.slice(0, eq);
  const dir = path.resolve(cwd, value.slice(eq + 1));
  if (!REPO_ID.test(repoId) || repoId.includes('..')) throw new Error(`--repo ${value}: "${repoId}" is not a repository id (owner/name)`);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`--repo ${value}: ${dir} is not a folder`);
  return { repoId, dir };
}
