import { z } from 'zod';
import { RepoName } from './repo.ts';

// A repository's files and its model info, as the real hub serves them (outside the spec). The
// shapes are what its public clients read, in huggingface.js packages/hub:
// - src/lib/list-files.ts `listFiles`: GET /api/{type}s/{repo}/tree/{revision}[/{path}]?recursive=&expand=,
//   items typed by src/types/api/api-index-tree.ts `ApiIndexTreeEntry` (type, size, path, oid, lfs?);
//   pages follow `Link: rel="next"`.
// - src/lib/model-info.ts `modelInfo`: GET /api/models/{repo}/revision/{revision}?expand=..., read as
//   src/types/api/api-model.ts `ApiModelInfo` (_id, id, private, gated, downloads, likes, lastModified,
//   pipeline_tag; `siblings[].rfilename` for its `filePaths`).

/** `recursive=true` as huggingface.js sends it, `True` as Python's requests does */
const FlagParam = z
  .union([z.boolean(), z.enum(['true', 'false', 'True', 'False', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === 'True' || v === '1');

/** Loose like the real hub: clients add parameters of their own (`expand`, `cursor`...). */
export const RepoTreeQuery = z.looseObject({ recursive: FlagParam.optional(), expand: FlagParam.optional() });

export const RepoTreeEntry = z.looseObject({
  type: z.enum(['file', 'directory', 'unknown']),
  /** the git object id (blob or tree) */
  oid: z.string(),
  /** bytes of the file (for an LFS file, the same as `lfs.size`); 0 for a folder */
  size: z.number().int().min(0),
  /** from the repository root, folders joined with `/` */
  path: z.string().min(1),
  lfs: z
    .looseObject({ oid: z.string(), size: z.number().int().min(0), pointerSize: z.number().int().min(0) })
    .optional(),
});
export type RepoTreeEntry = z.infer<typeof RepoTreeEntry>;
export const RepoTree = z.array(RepoTreeEntry);

/** what `modelInfo` (`expand`, repeated) and huggingface_hub's `model_info` (`securityStatus`, `blobs`) send */
export const ModelInfoQuery = z.strictObject({
  expand: z.union([z.string(), z.array(z.string())]).optional(),
  securityStatus: FlagParam.optional(),
  blobs: FlagParam.optional(),
});

export const ModelInfo = z.looseObject({
  _id: z.string(),
  id: RepoName,
  author: z.string().optional(),
  /** the commit the revision points at */
  sha: z.string(),
  private: z.boolean(),
  gated: z.union([z.literal(false), z.enum(['auto', 'manual'])]),
  downloads: z.number(),
  likes: z.number(),
  lastModified: z.string(),
  tags: z.array(z.string()),
  pipeline_tag: z.string().optional(),
  siblings: z.array(z.looseObject({ rfilename: z.string() })).optional(),
});
export type ModelInfo = z.infer<typeof ModelInfo>;
