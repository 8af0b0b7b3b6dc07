// A model repository's files and model info, for the repositories of the store and those with
// registered files (the demo checkpoints, `--repo` folders). Real hub: huggingface.js
// packages/hub/src/lib/list-files.ts `listFiles` and src/lib/model-info.ts `modelInfo` call these
// routes and read the shapes in src/hub/schemas/repo-tree.ts; huggingface_hub hf_api.py
// `list_repo_tree` and `model_info` likewise.
import { z } from 'zod';
import { ModelInfo, ModelInfoQuery, RepoTree, RepoTreeQuery, type RepoTreeEntry } from '../../hub/schemas/repo-tree.ts';
import { RepoName } from '../../hub/schemas/index.ts';
import type { HubContext } from '../hub-context.ts';
import type { AuthInfo } from '../auth/authenticate.ts';
import { HttpError } from '../http/http-error.ts';
import { defineRoute } from '../http/route.ts';
import { stableId } from '../seed/prng.ts';
import { canSee } from './repo-listing.ts';

const Params = z.strictObject({
  namespace: z.string().min(1),
  repo: z.string().min(1),
  revision: z.string().min(1),
});

const EVIDENCE = {
  tree: 'huggingface.js packages/hub/src/lib/list-files.ts listFiles; huggingface_hub src/huggingface_hub/hf_api.py HfApi.list_repo_tree',
  info: 'huggingface.js packages/hub/src/lib/model-info.ts modelInfo; huggingface_hub src/huggingface_hub/hf_api.py HfApi.model_info',
};

const repoNotFound = (repoId: string) =>
  new HttpError(404, `Repository not found: ${repoId}`, { 'X-Error-Code': 'RepoNotFound' });

/** the model repository as the caller may see it: its store record and the files registered at `revision` */
function findModel(hub: HubContext, auth: AuthInfo | undefined, p: z.output<typeof Params>) {
  const repoId = `${p.namespace}/${p.repo}`;
  if (!RepoName.safeParse(repoId).success) throw repoNotFound(repoId);
  // `modelInfo` asks for HEAD unless told otherwise: the default branch
  const revision = p.revision === 'HEAD' ? 'main' : p.revision;
  const record = hub.store.state.repos.find((r) => r.type === 'model' && r.id === repoId);
  const listing = hub.files.list(repoId, revision);
  if (record ? !canSee(record, auth) : !hub.files.repoIds().includes(repoId)) throw repoNotFound(repoId);
  if (!listing && revision !== 'main')
    throw new HttpError(404, `Invalid rev id: ${p.revision}`, { 'X-Error-Code': 'RevisionNotFound' });
  return { repoId, record, listing, revision };
}

/** git-like ids: stable per content, the shape the real hub sends (40 hex digits; 64 for LFS) */
const oid = (label: string) => stableId(label).repeat(2).slice(0, 40);
const lfsOid = (etag: string) => etag.replace(/"/g, '').padEnd(64, '0').slice(0, 64);
/** files the real hub keeps in LFS (its default .gitattributes): the weights */
const isLfs = (path: string) => /\.(safetensors|bin|onnx|pt|pth|ckpt|h5|msgpack)$/.test(path);

function treeEntries(files: { path: string; size: number; etag: string }[], recursive: boolean): RepoTreeEntry[] {
  const out: RepoTreeEntry[] = [];
  const folders = new Set<string>();
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      if ((recursive || i === 1) && !folders.has(folder)) {
        folders.add(folder);
        out.push({ type: 'directory', oid: oid(`tree:${folder}`), size: 0, path: folder });
      }
    }
    if (!recursive && parts.length > 1) continue;
    out.push({
      type: 'file',
      oid: oid(`blob:${f.path}:${f.etag}`),
      size: f.size,
      path: f.path,
      ...(isLfs(f.path) ? { lfs: { oid: lfsOid(f.etag), size: f.size, pointerSize: 134 } } : {}),
    });
  }
  return out;
}

export const repoTreeRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/models/{namespace}/{repo}/tree/{revision}',
    tag: 'repos',
    auth: 'optional',
    extension: { realHub: EVIDENCE.tree },
    summary: "A model repository's files at a revision (the root folder; every folder with recursive=true)",
    params: Params,
    query: RepoTreeQuery,
    response: RepoTree,
    handler: ({ params, query, auth, hub }) => {
      const { listing } = findModel(hub, auth, params);
      return treeEntries(listing?.files ?? [], query.recursive ?? false);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/models/{namespace}/{repo}/revision/{revision}',
    tag: 'repos',
    auth: 'optional',
    extension: { realHub: EVIDENCE.info },
    summary: 'A model repository at a revision: its commit, visibility and file names (real hub shape, subset)',
    params: Params,
    query: ModelInfoQuery,
    response: ModelInfo,
    handler: ({ params, auth, hub }) => {
      const { repoId, record, listing, revision } = findModel(hub, auth, params);
      const changed = record?.updatedAt ?? listing?.registeredAt ?? hub.store.now().toISOString();
      return {
        _id: stableId(`repo:${repoId}`),
        id: repoId,
        author: params.namespace,
        sha: listing?.commit ?? oid(`commit:${repoId}@${revision}`),
        private: record ? record.visibility !== 'public' : false,
        gated: false as const,
        downloads: record?.downloads ?? 0,
        likes: record?.likes ?? 0,
        createdAt: record?.createdAt ?? changed,
        lastModified: changed,
        tags: ['model'],
        siblings: (listing?.files ?? []).map((f) => ({ rfilename: f.path })),
      };
    },
  }),
];
