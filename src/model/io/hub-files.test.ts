import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCheckpoints } from '../models/consisid/demo-checkpoints.ts';
import { ConsisIDTransformer3DModel } from '../node.ts';
import { prepareRotaryEmbeddings } from '../models/consisid/rope.ts';
import { hubFileUrl, hubSource, HubFileError, openHubFile } from './hub-files.ts';
import { readSafetensorsHead } from '../io/checkpoint-file.ts';
import { writeSafetensors } from './safetensors/write.ts';
import { rangeHub } from '../test-support/range-hub.ts';
import type { DownloadProgress } from './file-source.ts';
import { loadCheckpoint } from '../models/consisid/load-checkpoint.ts';
import { prng, fillUniform } from '../models/consisid/random-weights.ts';
import type { HostTensor } from './tensor.ts';

const TOKEN = 'hf_test_token';
let server: Server;
let hubUrl: string;
const requests: { url: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  const files = new Map<string, Uint8Array>();
  for (const c of demoCheckpoints()) for (const f of c.files) files.set(`/${c.repoId}/resolve/main/${f.path}`, f.bytes);
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', auth: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    if (req.url?.startsWith('/slow/')) {
      res.writeHead(200, { 'content-length': '1000000' });
      res.write(new Uint8Array(1000));
      return;
    }
    const body = files.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': String(body.length) });
    // two chunks so progress reports intermediate values
    res.write(body.subarray(0, body.length >> 1));
    setTimeout(() => res.end(body.subarray(body.length >> 1)), 5);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hubUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const randn = (shape: number[], seed: number): HostTensor => {
  const n = shape.reduce((a, b) => a * b, 1);
  return { dtype: 'float32', shape, data: fillUniform(new Float32Array(n), prng(seed), 1) };
};

describe('hub files', () => {
  it('builds the real hub layout URL', () => {
    expect(
      hubFileUrl({ repoId: 'a/b', hubUrl: 'http://h/', revision: 'v1', subfolder: 'transformer' }, 'config.json'),
    ).toBe('http://h/a/b/resolve/v1/transformer/config.json');
    expect(hubFileUrl({ repoId: 'a/b' }, 'x')).toBe('https://huggingface.co/a/b/resolve/main/x');
  });

  it('encodes each path segment, and the revision as one segment', () => {
    expect(
      hubFileUrl({ repoId: 'a/b', hubUrl: 'http://h', revision: 'refs/pr/1', subfolder: '/sub dir/' }, 'x#1?.json'),
    ).toBe('http://h/a/b/resolve/refs%2Fpr%2F1/sub%20dir/x%231%3F.json');
  });

  it('fromPretrained downloads a sharded checkpoint with a Bearer token, reports progress, and runs', async () => {
    const progress: DownloadProgress[] = [];
    const model = await ConsisIDTransformer3DModel.fromPretrained('consisid-community/consisid-preview-s', {
      hubUrl,
      token: TOKEN,
      subfolder: 'transformer',
      onProgress: (p) => progress.push(p),
    });
    expect(requests.every((r) => r.auth === `Bearer ${TOKEN}`)).toBe(true);
    expect(
      requests.some((r) => r.url.endsWith('/transformer/diffusion_pytorch_model-00002-of-00002.safetensors')),
    ).toBe(true);
    const shard = progress.filter((p) => p.file === 'diffusion_pytorch_model-00001-of-00002.safetensors');
    expect(shard.length).toBeGreaterThan(1);
    expect(shard.at(-1)!.loaded).toBe(shard.at(-1)!.total);
    const c = model.config;
    const image_rotary_emb = prepareRotaryEmbeddings(c, { height: 128, width: 128, numFrames: 2 });
    const out = await model.forward({
      hidden_states: randn([1, 2, 4, 16, 16], 1),
      encoder_hidden_states: randn([1, 10, 64], 2),
      timestep: 500,
      image_rotary_emb,
      id_cond: randn([1, 64], 3),
      id_vit_hidden: [randn([1, 5, 64], 4), randn([1, 5, 64], 5)],
    });
    expect(out.sample.shape).toEqual([1, 2, 4, 16, 16]);
    expect(Array.from(out.sample.data as Float32Array).every(Number.isFinite)).toBe(true);
    await model.release();
  });

  it('reports a bad token and a missing repository clearly', async () => {
    await expect(
      loadCheckpoint(
        hubSource({ repoId: 'consisid-community/consisid-tiny', hubUrl, subfolder: 'transformer', token: 'wrong' }),
      ),
    ).rejects.toThrow(HubFileError);
    await expect(
      loadCheckpoint(hubSource({ repoId: 'consisid-community/consisid-tiny', hubUrl, subfolder: 'transformer' })),
    ).rejects.toThrow(/HTTP 401 \(check the token\)/);
    await expect(loadCheckpoint(hubSource({ repoId: 'nobody/nothing', hubUrl, token: TOKEN }))).rejects.toThrow(
      /nobody\/nothing\/resolve\/main\/config\.json not found/,
    );
    expect(() => hubSource({ repoId: '../etc', hubUrl })).toThrow(/not a repository id/);
    await expect(hubSource({ repoId: 'a/b', hubUrl: 'http://127.0.0.1:1' }).read('config.json')).rejects.toThrow(
      /GET http:\/\/127\.0\.0\.1:1\/a\/b\/resolve\/main\/config\.json failed/,
    );
  });

  it('cancels a download with an AbortSignal', async () => {
    const ac = new AbortController();
    const src = hubSource({ repoId: 'slow/repo', hubUrl, token: TOKEN });
    const pending = src.read('big.bin', { signal: ac.signal, onProgress: () => ac.abort() });
    await expect(pending).rejects.toThrow(/abort/i);
  });
});

/** a safetensors header from the hub by Range requests, as the preview's inspector reads it */
async function hubHeader(repo: Parameters<typeof openHubFile>[0], file: string) {
  const f = await openHubFile(repo, file);
  return { ...f!, header: (await readSafetensorsHead(f!, file)).header };
}

describe('safetensors headers by Range', () => {
  const small = writeSafetensors({ w: { dtype: 'float32', shape: [4, 8], data: new Float32Array(32) } });
  // about 400 KiB of header: more than the first 256 KiB probe
  const many = Object.fromEntries(
    Array.from({ length: 6000 }, (_, i) => [
      `block_${i}.a_long_parameter_name_to_grow_the_header.weight`,
      randn([2], i),
    ]),
  );
  const big = writeSafetensors(many);

  it('reads a header in one request, a bigger one in two, never the data', async () => {
    const a = rangeHub(small);
    const h = await hubHeader(a.repo, 'w.safetensors');
    expect(a.asked).toEqual(['bytes=0-262143']);
    expect(h).toMatchObject({ size: small.length, etag: '"e"' });
    expect(h.header.tensors.get('w')).toMatchObject({
      dtype: 'F32',
      shape: [4, 8],
      offset: h.header.dataStart,
      length: 128,
    });
    const b = rangeHub(big);
    const hb = await hubHeader(b.repo, 'big.safetensors');
    expect(b.asked).toEqual(['bytes=0-262143', `bytes=8-${hb.header.dataStart - 1}`]);
    expect(hb.header.tensors.size).toBe(6000);
    expect(hb.header.dataStart).toBeGreaterThan(262144);
  });

  it('reads only the prefix from a hub that ignores Range, and names the file in header errors', async () => {
    const c = rangeHub(small, { ranges: false });
    expect((await hubHeader(c.repo, 'w.safetensors')).header.tensors.size).toBe(1);
    const broken = small.slice();
    new DataView(broken.buffer).setBigUint64(0, 10n ** 6n, true);
    await expect(hubHeader(rangeHub(broken).repo, 'w.safetensors')).rejects.toThrow(
      /w\.safetensors: truncated, header says 1000000 bytes/,
    );
  });

  it('HTTP errors name the file, the URL and the status', async () => {
    const fetch = (async () => new Response('no', { status: 403 })) as unknown as typeof globalThis.fetch;
    const err = await openHubFile(
      { repoId: 'a/b', hubUrl: 'http://h', subfolder: 'transformer', fetch },
      'w.safetensors',
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubFileError);
    expect(err).toMatchObject({
      status: 403,
      file: 'w.safetensors',
      url: 'http://h/a/b/resolve/main/transformer/w.safetensors',
    });
    expect((err as Error).message).toBe(
      'w.safetensors: HTTP 403 (check the token): this token may not read the repository (GET http://h/a/b/resolve/main/transformer/w.safetensors failed)',
    );
  });
});
