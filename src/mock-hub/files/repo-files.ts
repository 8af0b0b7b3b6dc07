import { createHash } from 'node:crypto';
import { lstatSync, readdirSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Hono } from 'hono';
import { errorResponse } from '../http/respond.ts';
import { parseRange } from './byte-range.ts';
import { noneMatch, rangeStillValid } from './conditional.ts';
import { fileRangeStream } from './file-range-stream.ts';

export interface RepoFile {
  path: string;
  bytes: Uint8Array;
}

interface StoredFile {
  size: number;
  etag: string;
  /** bytes [start, end] (inclusive) */
  body(start: number, end: number): BodyInit;
}

/** one file of a repository as the tree listing shows it */
export interface ListedFile {
  path: string;
  size: number;
  etag: string;
}

/** what a repository holds at one revision */
export interface RepoListing {
  commit: string;
  files: ListedFile[];
  /** when the files were registered (the repository's creation and last change) */
  registeredAt: string;
}

export interface RepoFiles {
  register(repoId: string, files: RepoFile[], revision?: string): void;
  /** serves a local folder as the repository's files, read from disk per request (never held in memory) */
  registerFolder(repoId: string, dir: string, revision?: string): void;
  get(repoId: string, revision: string, path: string): Promise<{ file: StoredFile; commit: string } | undefined>;
  /** every file at `revision`, sorted by path; undefined when the repository has none registered there */
  list(repoId: string, revision: string): RepoListing | undefined;
  /** the repositories with registered files (`namespace/name`, `datasets/...`, `spaces/...`) */
  repoIds(): string[];
}

/** files listed from a `--repo` folder at most: a folder that big is not a checkpoint */
const MAX_LISTED_FILES = 10_000;

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
// the content is not hashed (gigabytes): size and modification time stand for it
const diskEtag = (rel: string, size: number, mtimeMs: number) => `"${sha1(`${rel}:${size}:${mtimeMs}`)}"`;

function memoryFile(bytes: Uint8Array): StoredFile {
  const copy = new Uint8Array(bytes);
  return {
    size: copy.byteLength,
    etag: `"${createHash('sha256').update(copy).digest('hex')}"`,
    body: (start, end) => copy.subarray(start, end + 1),
  };
}

/**
 * a file under `dir`, or undefined for anything else (a folder, a missing file, a path that leaves
 * `dir`, by `..` or by a symbolic link to somewhere outside it)
 */
async function diskFile(dir: string, rel: string): Promise<StoredFile | undefined> {
  const full = path.resolve(dir, rel);
  if (!full.startsWith(path.resolve(dir) + path.sep)) return undefined;
  const [real, realDir] = await Promise.all([realpath(full).catch(() => null), realpath(dir).catch(() => null)]);
  if (!real || !realDir || !real.startsWith(realDir + path.sep)) return undefined;
  const st = await stat(real).catch(() => null);
  if (!st?.isFile()) return undefined;
  return {
    size: st.size,
    etag: diskEtag(rel, st.size, st.mtimeMs),
    body: (start, end) => fileRangeStream(real, start, end),
  };
}

/** the regular files under `dir` (symbolic links and hidden folders left out, as they are not served as the repository's) */
function walkFolder(dir: string): ListedFile[] {
  const out: ListedFile[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      if (out.length >= MAX_LISTED_FILES) return;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && !e.name.startsWith('.')) walk(child);
      else if (e.isFile()) {
        const st = lstatSync(path.join(dir, child));
        out.push({ path: child, size: st.size, etag: diskEtag(child, st.size, st.mtimeMs) });
      }
    }
  };
  walk('');
  return out;
}

/** `repoId` is `namespace/name` for models, `datasets/namespace/name` or `spaces/namespace/name` otherwise. */
export function createRepoFiles(now: () => Date = () => new Date()): RepoFiles {
  const revisions = new Map<string, Map<string, StoredFile>>();
  const folders = new Map<string, string>();
  const registeredAt = new Map<string, string>();
  return {
    register(repoId, files, revision = 'main') {
      const key = `${repoId}@${revision}`;
      registeredAt.set(key, now().toISOString());
      const map = revisions.get(key) ?? new Map<string, StoredFile>();
      for (const f of files) map.set(f.path.replace(/^\/+/, ''), memoryFile(f.bytes));
      revisions.set(key, map);
    },
    registerFolder(repoId, dir, revision = 'main') {
      folders.set(`${repoId}@${revision}`, dir);
      registeredAt.set(`${repoId}@${revision}`, now().toISOString());
    },
    async get(repoId, revision, path) {
      const key = `${repoId}@${revision}`;
      const dir = folders.get(key);
      const file = revisions.get(key)?.get(path) ?? (dir !== undefined ? await diskFile(dir, path) : undefined);
      return file && { file, commit: sha1(key) };
    },
    list(repoId, revision) {
      const key = `${repoId}@${revision}`;
      const at = registeredAt.get(key);
      if (at === undefined) return undefined;
      const dir = folders.get(key);
      const files = new Map((dir !== undefined ? walkFolder(dir) : []).map((f) => [f.path, f]));
      for (const [p, f] of revisions.get(key) ?? []) files.set(p, { path: p, size: f.size, etag: f.etag });
      return {
        commit: sha1(key),
        files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : 1)),
        registeredAt: at,
      };
    },
    repoIds: () => [...new Set([...registeredAt.keys()].map((k) => k.slice(0, k.lastIndexOf('@'))))],
  };
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** `GET|HEAD /{ns}/{repo}/resolve/{revision}/{path...}` (plus `/datasets/...`, `/spaces/...`), public, with ranges. */
export function mountRepoFiles(app: Hono, files: RepoFiles): void {
  const serve = (prefix: string) => async (c: Context) => {
    const { ns, repo, revision } = c.req.param() as Record<string, string>;
    const marker = `/resolve/${revision}/`;
    const rawPath = c.req.path.slice(c.req.path.indexOf(marker) + marker.length);
    const path = safeDecode(rawPath);
    const rev = safeDecode(revision!);
    if (path === undefined || rev === undefined)
      return errorResponse(c, 400, 'path: malformed percent-encoding in the revision or file path');
    const repoId = `${prefix}${ns}/${repo}`;
    const found = await files.get(repoId, rev, path);
    if (!found)
      return errorResponse(c, 404, `file "${path}" not found in ${repoId} at revision ${revision}`, {
        'X-Error-Code': 'EntryNotFound',
      });
    const { file, commit } = found;
    const size = file.size;
    const headers: Record<string, string> = {
      'Accept-Ranges': 'bytes',
      ETag: file.etag,
      'X-Repo-Commit': commit,
      'Content-Type': 'application/octet-stream',
      'Cache-Control': 'public, max-age=60',
    };
    if (noneMatch(c.req.header('if-none-match'), file.etag)) return new Response(null, { status: 304, headers });
    const range = rangeStillValid(c.req.header('if-range'), file.etag)
      ? parseRange(c.req.header('range'), size)
      : ({ kind: 'full' } as const);
    if (range.kind === 'unsatisfiable') {
      return errorResponse(c, 416, `range not satisfiable: file has ${size} bytes`, {
        'Content-Range': `bytes */${size}`,
        'Accept-Ranges': 'bytes',
      });
    }
    const head = c.req.method === 'HEAD';
    if (range.kind === 'partial') {
      headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
      headers['Content-Length'] = String(range.end - range.start + 1);
      return new Response(head ? null : file.body(range.start, range.end), { status: 206, headers });
    }
    headers['Content-Length'] = String(size);
    return new Response(head || size === 0 ? null : file.body(0, size - 1), { status: 200, headers });
  };
  for (const prefix of ['datasets/', 'spaces/'])
    app.on(['GET', 'HEAD'], `/${prefix}:ns/:repo/resolve/:revision/*`, serve(prefix));
  app.on(['GET', 'HEAD'], '/:ns/:repo/resolve/:revision/*', serve(''));
}
