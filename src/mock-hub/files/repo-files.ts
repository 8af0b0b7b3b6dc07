import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { errorResponse } from '../http/respond.ts';
import { parseRange } from './byte-range.ts';

export interface RepoFile {
  path: string;
  bytes: Uint8Array;
}

interface StoredFile {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}

export interface RepoFiles {
  register(repoId: string, files: RepoFile[], revision?: string): void;
  get(repoId: string, revision: string, path: string): { file: StoredFile; commit: string } | undefined;
}

/** `repoId` is `namespace/name` for models, `datasets/namespace/name` or `spaces/namespace/name` otherwise. */
export function createRepoFiles(): RepoFiles {
  const revisions = new Map<string, Map<string, StoredFile>>();
  return {
    register(repoId, files, revision = 'main') {
      const key = `${repoId}@${revision}`;
      const map = revisions.get(key) ?? new Map<string, StoredFile>();
      for (const f of files) map.set(f.path.replace(/^\/+/, ''), { bytes: new Uint8Array(f.bytes), etag: `"${createHash('sha256').update(f.bytes).digest('hex')}"` });
      revisions.set(key, map);
    },
    get(repoId, revision, path) {
      const file = revisions.get(`${repoId}@${revision}`)?.get(path);
      if (!file) return undefined;
      return { file, commit: createHash('sha1').update(`${repoId}@${revision}`).digest('hex') };
    },
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
  const serve = (prefix: string) => (c: Context) => {
    const { ns, repo, revision } = c.req.param() as Record<string, string>;
    const marker = `/resolve/${revision}/`;
    const rawPath = c.req.path.slice(c.req.path.indexOf(marker) + marker.length);
    const path = safeDecode(rawPath);
    const rev = safeDecode(revision!);
    if (path === undefined || rev === undefined) return errorResponse(c, 400, 'path: malformed percent-encoding in the revision or file path');
    const repoId = `${prefix}${ns}/${repo}`;
    const found = files.get(repoId, rev, path);
    if (!found) return errorResponse(c, 404, `file "${path}" not found in ${repoId} at revision ${revision}`, { 'X-Error-Code': 'EntryNotFound' });
    const { file, commit } = found;
    const size = file.bytes.byteLength;
    const headers: Record<string, string> = {
      'Accept-Ranges': 'bytes',
      ETag: file.etag,
      'X-Repo-Commit': commit,
      'Content-Type': 'application/octet-stream',
      'Cache-Control': 'public, max-age=60',
    };
    if (c.req.header('if-none-match') === file.etag) return new Response(null, { status: 304, headers });
    const range = parseRange(c.req.header('range'), size);
    if (range.kind === 'unsatisfiable') {
      return errorResponse(c, 416, `range not satisfiable: file has ${size} bytes`, { 'Content-Range': `bytes */${size}`, 'Accept-Ranges': 'bytes' });
    }
    const head = c.req.method === 'HEAD';
    if (range.kind === 'partial') {
      const body = file.bytes.subarray(range.start, range.end + 1);
      headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
      headers['Content-Length'] = String(body.byteLength);
      return new Response(head ? null : body, { status: 206, headers });
    }
    headers['Content-Length'] = String(size);
    return new Response(head ? null : file.bytes, { status: 200, headers });
  };
  for (const prefix of ['datasets/', 'spaces/']) app.on(['GET', 'HEAD'], `/${prefix}:ns/:repo/resolve/:revision/*`, serve(prefix));
  app.on(['GET', 'HEAD'], '/:ns/:repo/resolve/:revision/*', serve(''));
}
