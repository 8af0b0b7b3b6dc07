import { HubRepoList, HubRepoListQuery, RepoName, type RepoType } from '../../hub/schemas/index.ts';
import type { AuthInfo } from '../auth/authenticate.ts';
import type { HubContext } from '../hub-context.ts';
import { defineRoute } from '../http/route.ts';
import { stableId } from '../seed/prng.ts';
import { findOrg } from '../seed/users.ts';
import type { StoredRepo } from '../store/state-schema.ts';

export function canSee(repo: StoredRepo, auth: AuthInfo | undefined): boolean {
  if (repo.visibility === 'public') return true;
  if (!auth) return false;
  return repo.owner === auth.user.name || auth.user.name in (findOrg(repo.owner)?.members ?? {});
}

// Real hub: huggingface_hub hf_api.py HfApi.list_models / list_datasets / list_spaces and huggingface.js
// packages/hub/src/lib/list-models.ts listModels (list-datasets.ts, list-spaces.ts likewise).
const EVIDENCE = {
  models:
    'huggingface_hub src/huggingface_hub/hf_api.py HfApi.list_models; huggingface.js packages/hub/src/lib/list-models.ts listModels',
  datasets:
    'huggingface_hub src/huggingface_hub/hf_api.py HfApi.list_datasets; huggingface.js packages/hub/src/lib/list-datasets.ts listDatasets',
  spaces:
    'huggingface_hub src/huggingface_hub/hf_api.py HfApi.list_spaces; huggingface.js packages/hub/src/lib/list-spaces.ts listSpaces',
} as const;

/** public repositories that have registered files (demo checkpoints, `--repo` folders) but no store record */
function fileOnlyRepos(hub: HubContext, type: RepoType): StoredRepo[] {
  const prefix = type === 'model' ? '' : `${type}s/`;
  return hub.files.repoIds().flatMap((key) => {
    const id = key.slice(prefix.length);
    if (!key.startsWith(prefix) || !RepoName.safeParse(id).success) return [];
    if (hub.store.state.repos.some((r) => r.type === type && r.id === id)) return [];
    const at = hub.files.list(key, 'main')?.registeredAt ?? new Date(0).toISOString();
    const owner = id.slice(0, id.indexOf('/'));
    return [
      { id, type, owner, visibility: 'public', storage: 0, createdAt: at, updatedAt: at, likes: 0, downloads: 0 },
    ];
  });
}

function listing(kind: 'models' | 'datasets' | 'spaces', type: RepoType) {
  return defineRoute({
    method: 'get',
    path: `/api/${kind}`,
    tag: kind,
    auth: 'optional',
    extension: { realHub: EVIDENCE[kind] },
    summary: `List ${kind} (real hub shape, subset); private ones only for their owner and org members`,
    query: HubRepoListQuery,
    response: HubRepoList,
    handler: ({ query, auth, hub }) => {
      const search = typeof query.search === 'string' ? query.search.toLowerCase() : undefined;
      const rows = [...hub.store.state.repos, ...fileOnlyRepos(hub, type)]
        .filter(
          (r) =>
            r.type === type &&
            (!query.author || r.owner === query.author) &&
            (!search || r.id.toLowerCase().includes(search)) &&
            canSee(r, auth),
        )
        .map((r) => ({
          _id: stableId(`repo:${r.id}`),
          id: r.id,
          author: r.owner,
          private: r.visibility !== 'public',
          likes: r.likes,
          downloads: r.downloads,
          tags: [type],
          createdAt: r.createdAt,
          lastModified: r.updatedAt,
          ...(type === 'model'
            ? { modelId: r.id }
            : type === 'space'
              ? { sdk: 'gradio' }
              : { gated: false, disabled: false }),
        }));
      return query.limit ? rows.slice(0, query.limit) : rows;
    },
  });
}

export const repoListingRoutes = [
  listing('models', 'model'),
  listing('datasets', 'dataset'),
  listing('spaces', 'space'),
];
