// The tree and model-info routes as huggingface.js reads them: the readers below build the URLs
// and read the fields that packages/hub/src/lib/list-files.ts `listFiles` and model-info.ts
// `modelInfo` do, so a shape that would break them fails here.
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HubRepoList } from '../../hub/schemas/index.ts';
import { ModelInfo, RepoTree } from '../../hub/schemas/repo-tree.ts';
import type { MockHub } from '../app.ts';
import { TOKENS, call, testHub } from '../test-support.ts';

/** `listFiles`: GET .../tree/{revision}?recursive=&expand=, every item as ApiIndexTreeEntry, pages by Link */
async function listFiles(hub: MockHub, name: string, recursive: boolean, revision = 'main', token?: string) {
  const out: { type: string; size: number; path: string; oid: string; lfs?: { size: number } }[] = [];
  let url: string | undefined = `/api/models/${name}/tree/${revision}?recursive=${recursive}&expand=false`;
  while (url) {
    const res: Response = await hub.app.request(url, {
      headers: { accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    });
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    out.push(...((await res.json()) as typeof out));
    url = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('Link') ?? '')?.[1];
  }
  return out;
}

/** `modelInfo` with `additionalFields: ['filePaths']`: its URL, and the fields it reads */
async function modelInfo(hub: MockHub, name: string, revision?: string) {
  const expand = ['pipeline_tag', 'private', 'gated', 'downloads', 'likes', 'lastModified', 'siblings'];
  const search = new URLSearchParams(expand.map((e) => ['expand', e])).toString();
  const res = await hub.app.request(`/api/models/${name}/revision/${encodeURIComponent(revision ?? 'HEAD')}?${search}`);
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  const data = (await res.json()) as Record<string, unknown>;
  return {
    filePaths: ((data.siblings ?? []) as { rfilename: string }[]).map((s) => s.rfilename),
    id: data._id as string,
    name: data.id as string,
    private: data.private as boolean,
    task: data.pipeline_tag as string | undefined,
    downloads: data.downloads as number,
    gated: data.gated as false | string,
    likes: data.likes as number,
    updatedAt: new Date(data.lastModified as string),
  };
}

const bytes = (n: number) => new Uint8Array(n).fill(7);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function hubWithCheckpoints(specOnly = false) {
  const hub = await testHub({ specOnly });
  hub.registerRepoFiles('consisid-community/tiny', [
    { path: 'transformer/config.json', bytes: bytes(10) },
    { path: 'transformer/diffusion_pytorch_model.safetensors', bytes: bytes(300) },
    { path: 'README.md', bytes: bytes(5) },
  ]);
  const dir = mkdtempSync(path.join(tmpdir(), 'repo-tree-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'unet'));
  mkdirSync(path.join(dir, '.git'));
  writeFileSync(path.join(dir, 'unet', 'config.json'), '{}');
  writeFileSync(path.join(dir, 'unet', 'diffusion_pytorch_model.safetensors'), bytes(40));
  writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref');
  symlinkSync('/etc/hostname', path.join(dir, 'outside'));
  hub.registerRepoFolder('local/folder', dir);
  return hub;
}

describe('GET /api/models/{repo}/tree/{revision}', () => {
  it('lists registered files and folders as listFiles reads them, sizes and LFS for the weights', async () => {
    const hub = await hubWithCheckpoints();
    const all = await listFiles(hub, 'consisid-community/tiny', true);
    expect(RepoTree.parse(all)).toHaveLength(4);
    expect(all.map((e) => [e.type, e.path, e.size])).toEqual([
      ['file', 'README.md', 5],
      ['directory', 'transformer', 0],
      ['file', 'transformer/config.json', 10],
      ['file', 'transformer/diffusion_pytorch_model.safetensors', 300],
    ]);
    expect(all[3]!.lfs).toMatchObject({ size: 300 });
    expect(all[2]!.lfs).toBeUndefined();
    expect(all.every((e) => /^[0-9a-f]{40}$/.test(e.oid))).toBe(true);
    // not recursive: the root folder only
    expect((await listFiles(hub, 'consisid-community/tiny', false)).map((e) => e.path)).toEqual([
      'README.md',
      'transformer',
    ]);
  });

  it('lists a --repo folder from disk, leaving out hidden folders and links', async () => {
    const hub = await hubWithCheckpoints();
    expect((await listFiles(hub, 'local/folder', true)).map((e) => `${e.type} ${e.path} ${e.size}`)).toEqual([
      'directory unet 0',
      'file unet/config.json 2',
      'file unet/diffusion_pytorch_model.safetensors 40',
    ]);
  });

  it('answers 404 for an unknown repository or revision, and hides private repositories from others', async () => {
    const hub = await hubWithCheckpoints();
    const unknown = await call(hub, 'GET', '/api/models/nobody/nothing/tree/main');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-error-code')).toBe('RepoNotFound');
    const rev = await call(hub, 'GET', '/api/models/consisid-community/tiny/tree/v9');
    expect([rev.status, rev.headers.get('x-error-code')]).toEqual([404, 'RevisionNotFound']);
    const mine = HubRepoList.parse((await call(hub, 'GET', '/api/models?author=alice')).body);
    const hidden = mine.find((m) => m.private)!;
    expect((await call(hub, 'GET', `/api/models/${hidden.id}/tree/main`)).body).toEqual([]);
    expect((await call(hub, 'GET', `/api/models/${hidden.id}/tree/main`, { token: null })).status).toBe(404);
    expect((await call(hub, 'GET', `/api/models/${hidden.id}/tree/main`, { token: TOKENS.bobWrite })).status).toBe(404);
  });
});

describe('GET /api/models/{repo}/revision/{revision}', () => {
  it('answers what modelInfo reads, HEAD being the default branch, in spec-only mode too', async () => {
    for (const specOnly of [false, true]) {
      const hub = await hubWithCheckpoints(specOnly);
      const info = await modelInfo(hub, 'consisid-community/tiny');
      expect(info).toMatchObject({ name: 'consisid-community/tiny', private: false, gated: false, likes: 0 });
      expect(info.filePaths).toEqual([
        'README.md',
        'transformer/config.json',
        'transformer/diffusion_pytorch_model.safetensors',
      ]);
      expect(Number.isNaN(info.updatedAt.getTime())).toBe(false);
      const main = ModelInfo.parse((await call(hub, 'GET', '/api/models/consisid-community/tiny/revision/main')).body);
      expect(main.sha).toMatch(/^[0-9a-f]{40}$/);
      expect((await listFiles(hub, 'local/folder', true)).length).toBe(3);
    }
  });
});

describe('GET /api/models?author=', () => {
  it('lists the repositories with registered files beside those of the store', async () => {
    const hub = await hubWithCheckpoints();
    const listed = HubRepoList.parse((await call(hub, 'GET', '/api/models?author=consisid-community')).body);
    expect(listed.map((m) => [m.id, m.author, m.private])).toEqual([
      ['consisid-community/tiny', 'consisid-community', false],
    ]);
    const local = HubRepoList.parse((await call(hub, 'GET', '/api/models?author=local', { token: null })).body);
    expect(local.map((m) => m.id)).toEqual(['local/folder']);
    // a store repository is listed once, with its own record
    const alice = HubRepoList.parse((await call(hub, 'GET', '/api/models?author=alice')).body);
    hub.registerRepoFiles(alice[0]!.id, [{ path: 'config.json', bytes: bytes(2) }]);
    const again = HubRepoList.parse((await call(hub, 'GET', '/api/models?author=alice')).body);
    expect(again.map((m) => m.id)).toEqual(alice.map((m) => m.id));
  });
});
