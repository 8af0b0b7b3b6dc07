// The checkpoint picker's reads, on the real hub's file API: a user's model repositories
// (huggingface.js listModels), and the folders of one repository that hold a diffusers
// checkpoint, with their sizes and the vae/ beside each (listFiles, recursive; modelInfo for the
// commit), read before anything is downloaded.
import { queryOptions } from '@tanstack/react-query';
import type { HubClient } from '../../hub/client.ts';
import { hubKeys } from '../../hub/queries.ts';
import type { RepoTreeEntry } from '../../hub/schemas/repo-tree.ts';

export interface CheckpointFolder {
  /** '' for the repository's root */
  subfolder: string;
  /** bytes of the safetensors weights (what a download fetches) */
  weightBytes: number;
  weightFiles: number;
  /** the VAE folder beside it (a checkpoint's vae/ decodes the transformer's latents; it is no folder to load) */
  vae?: { weightBytes: number; weightFiles: number };
}

/** `vae` beside the transformer's folder, as the inspection finds it (the page's thread imports no model code) */
const vaeSubfolder = (folder: string) => (folder.includes('/') ? folder.replace(/[^/]+$/, 'vae') : 'vae');
const isVae = (subfolder: string) => subfolder === vaeSubfolder(subfolder);

/** the weights the model loader reads: one file, or the shards its index names */
const isWeights = (name: string) => /^diffusion_pytorch_model(-\d+-of-\d+)?\.safetensors$/.test(name);
/** what the loader starts from (WEIGHTS_NAME or WEIGHTS_INDEX_NAME in src/model) */
const isEntry = (name: string) => /^diffusion_pytorch_model\.safetensors(\.index\.json)?$/.test(name);

/** folders holding config.json beside the weights the loader reads (the file or its shard index), by path */
export function checkpointFolders(tree: readonly RepoTreeEntry[]): CheckpointFolder[] {
  const folders = new Map<string, { names: Set<string>; weightBytes: number; weightFiles: number }>();
  for (const e of tree) {
    if (e.type !== 'file') continue;
    const slash = e.path.lastIndexOf('/');
    const subfolder = slash < 0 ? '' : e.path.slice(0, slash);
    const name = e.path.slice(slash + 1);
    const f = folders.get(subfolder) ?? { names: new Set<string>(), weightBytes: 0, weightFiles: 0 };
    f.names.add(name);
    if (isWeights(name)) {
      // an LFS file's size is its content's (the pointer's is not what downloads)
      f.weightBytes += e.lfs?.size ?? e.size;
      f.weightFiles++;
    }
    folders.set(subfolder, f);
  }
  const models = [...folders]
    .filter(([, f]) => f.names.has('config.json') && [...f.names].some(isEntry))
    .map(([subfolder, { weightBytes, weightFiles }]) => ({ subfolder, weightBytes, weightFiles }));
  const vaes = new Map(
    models.filter((m) => isVae(m.subfolder)).map(({ subfolder, ...size }) => [subfolder, { vae: size }]),
  );
  return models
    .flatMap((m) => (isVae(m.subfolder) ? [] : [{ ...m, ...vaes.get(vaeSubfolder(m.subfolder)) }]))
    .sort((a, b) => (a.subfolder < b.subfolder ? -1 : 1));
}

/** the checkpoint folders of a repository at a revision, and the commit it points at */
export interface FolderListing {
  commit: string;
  folders: CheckpointFolder[];
}

export const pickerKeys = {
  models: (owner: string) => [...hubKeys.all, 'models', 'list', { author: owner }] as const,
  folders: (repoId: string, revision: string) =>
    [...hubKeys.all, 'models', 'checkpoint-folders', repoId, revision] as const,
};

export const ownerModelsQuery = (client: HubClient, owner: string) =>
  queryOptions({
    queryKey: pickerKeys.models(owner),
    queryFn: ({ signal }) => client.listModels({ author: owner }, { signal }),
  });

export const checkpointFoldersQuery = (client: HubClient, repoId: string, revision: string) =>
  queryOptions({
    queryKey: pickerKeys.folders(repoId, revision),
    queryFn: async ({ signal }): Promise<FolderListing> => {
      const [info, tree] = await Promise.all([
        client.getModelInfo(repoId, revision, { signal }),
        client.listModelFiles(repoId, revision, { signal }),
      ]);
      return { commit: info.sha, folders: checkpointFolders(tree) };
    },
  });
