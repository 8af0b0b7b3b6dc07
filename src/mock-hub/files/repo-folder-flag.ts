// `--repo <owner/name>=<folder>`: a local checkpoint folder served as a hub repository.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const REPO_ID = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/;
/** what the model's loader reads (src/model/safetensors/index-file.ts; mock-hub imports nothing from src/model) */
const CHECKPOINT = {
  config: 'config.json',
  weights: ['diffusion_pytorch_model.safetensors', 'diffusion_pytorch_model.safetensors.index.json'],
};

export interface RepoFolder {
  repoId: string;
  dir: string;
}

/** config.json and the weights beside it, in `dir` or one of its subfolders (transformer/ in the diffusers layout) */
function holdsCheckpoint(dir: string): boolean {
  const isCheckpoint = (d: string) =>
    existsSync(path.join(d, CHECKPOINT.config)) && CHECKPOINT.weights.some((w) => existsSync(path.join(d, w)));
  return (
    isCheckpoint(dir) ||
    readdirSync(dir, { withFileTypes: true }).some((e) => e.isDirectory() && isCheckpoint(path.join(dir, e.name)))
  );
}

/** parses one `--repo` value; throws a message naming the flag and what is wrong */
export function parseRepoFolder(value: string, cwd = process.cwd()): RepoFolder {
  const eq = value.indexOf('=');
  if (eq < 0) throw new Error(`--repo ${value}: expected <owner/name>=<folder>`);
  const repoId = value.slice(0, eq);
  // an empty folder would resolve to the current one: the user's project, served to any origin
  if (value.slice(eq + 1).trim() === '') throw new Error(`--repo ${value}: no folder after "="`);
  const dir = path.resolve(cwd, value.slice(eq + 1));
  if (!REPO_ID.test(repoId) || repoId.includes('..'))
    throw new Error(`--repo ${value}: "${repoId}" is not a repository id (owner/name)`);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`--repo ${value}: ${dir} is not a folder`);
  if (!holdsCheckpoint(dir)) {
    throw new Error(
      `--repo ${value}: no checkpoint in ${dir} (${CHECKPOINT.config} with ${CHECKPOINT.weights[0]} or its .index.json, in the folder or a subfolder such as transformer/)`,
    );
  }
  return { repoId, dir };
}

/** every `--repo` value; one repository served from two folders is refused */
export function parseRepoFolders(values: readonly string[], cwd = process.cwd()): RepoFolder[] {
  const folders = values.map((v) => parseRepoFolder(v, cwd));
  const seen = new Set<string>();
  for (const f of folders) {
    if (seen.has(f.repoId)) throw new Error(`--repo ${f.repoId} is given twice`);
    seen.add(f.repoId);
  }
  return folders;
}
