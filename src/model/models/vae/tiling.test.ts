import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { localSource } from '../../io/local-source.ts';
import type { FileSource } from '../../io/file-source.ts';
import { nodeBackend } from '../../runtime/node.ts';
import { relativeError } from '../../io/tensor.ts';
import { parseVaeConfig } from './config.ts';
import { VaeDecoder } from './decoder.ts';
import { loadVae } from './load.ts';
import { loadVaeCase, vaeCaseDir } from './test-fixtures.ts';
import { tileBoxes, tileGeometry } from './tiling.ts';
import { cropLatents, type Tensor5 } from './video-tensor.ts';

const opened: VaeDecoder[] = [];
afterAll(async () => {
  for (const d of opened) await d.release();
});

describe("tiles as diffusers' tiled_decode", () => {
  it('the released config: tiles of 30 x 45 latents every 25 x 36, blended over 40 x 72 pixels, 200 x 288 kept', () => {
    const t = tileGeometry(parseVaeConfig({}));
    expect(t).toEqual({ latent: [30, 45], stride: [25, 36], blend: [40, 72], keep: [200, 288] });
    const boxes = tileBoxes(t, 60, 90);
    expect(boxes.map((r) => r[0]!.rows)).toEqual([
      [0, 30],
      [25, 55],
      [50, 60],
    ]);
    expect(boxes[0]!.map((b) => b.cols)).toEqual([
      [0, 45],
      [36, 81],
      [72, 90],
    ]);
  });

  it("a tiled decode is the reference's blend of the tiles' own decodes", async () => {
    // the vae-real-shape weights with a sample size of 96 x 80: tiles of 6 x 5 latents over its 6 x 10
    const dir = vaeCaseDir('vae-real-shape');
    const base = localSource(dir);
    const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    const source: FileSource = {
      ...base,
      read: async (file, opts) =>
        file === 'config.json'
          ? new TextEncoder().encode(JSON.stringify({ ...config, sample_height: 96, sample_width: 80 }))
          : base.read(file, opts),
    };
    const d = new VaeDecoder(await loadVae(source), {
      backend: nodeBackend(),
      device: 'cpu',
      threads: 1,
      maxSessions: 8,
    });
    opened.push(d);
    const { latents } = loadVaeCase('vae-real-shape');
    const seen: number[] = [];
    const tiled = await d.decode(latents, { tile: true, onBatch: (p) => seen.push(p.done) });
    expect(seen).toEqual([...Array(12).keys()]); // 6 tiles x 2 frame batches
    const reference = await referenceTiledDecode(d, latents);
    expect(tiled.dims).toEqual([1, 3, 17, 48, 80]);
    expect(relativeError(tiled.data, reference.data)).toBeLessThan(1e-7);
    // an untiled decode differs (each tile sees only its own latents)
    expect(relativeError((await d.decode(latents)).data, tiled.data)).toBeGreaterThan(1e-3);
  });
});

/**
 * diffusers' tiled_decode written out loop by loop as the Python does (tile sizes from the
 * config, tiles decoded untiled, blend_v / blend_h in place in raster order, then the kept
 * corners concatenated), over 5-D index arithmetic of its own.
 */
async function referenceTiledDecode(d: VaeDecoder, z: Tensor5): Promise<Tensor5> {
  const c = d.config;
  const sampleH = Math.floor(c.sample_height / 2);
  const sampleW = Math.floor(c.sample_width / 2);
  const latH = Math.trunc(sampleH / 8);
  const latW = Math.trunc(sampleW / 8);
  const overlapH = Math.trunc(latH * (1 - 1 / 6));
  const overlapW = Math.trunc(latW * (1 - 1 / 5));
  const extentH = Math.trunc(sampleH / 6);
  const extentW = Math.trunc(sampleW / 5);
  const [limitH, limitW] = [sampleH - extentH, sampleW - extentW];
  const [, f, , h, w] = z.dims;
  const rows: Tensor5[][] = [];
  for (let i = 0; i < h; i += overlapH) {
    const row: Tensor5[] = [];
    for (let j = 0; j < w; j += overlapW)
      row.push(await d.decode(cropLatents(z, [0, f], [i, i + latH], [j, j + latW])));
    rows.push(row);
  }
  const at = (x: Tensor5, p: number, y: number, xx: number) => (p * x.dims[3] + y) * x.dims[4] + xx;
  const planes = (x: Tensor5) => x.dims[0] * x.dims[1] * x.dims[2];
  for (let i = 0; i < rows.length; i++)
    for (let j = 0; j < rows[i]!.length; j++) {
      const b = rows[i]![j]!;
      if (i > 0) {
        const a = rows[i - 1]![j]!;
        const e = Math.min(a.dims[3], b.dims[3], extentH);
        for (let y = 0; y < e; y++)
          for (let p = 0; p < planes(b); p++)
            for (let x = 0; x < b.dims[4]; x++)
              b.data[at(b, p, y, x)] =
                a.data[at(a, p, a.dims[3] - e + y, x)]! * (1 - y / e) + b.data[at(b, p, y, x)]! * (y / e);
      }
      if (j > 0) {
        const a = rows[i]![j - 1]!;
        const e = Math.min(a.dims[4], b.dims[4], extentW);
        for (let x = 0; x < e; x++)
          for (let p = 0; p < planes(b); p++)
            for (let y = 0; y < b.dims[3]; y++)
              b.data[at(b, p, y, x)] =
                a.data[at(a, p, y, a.dims[4] - e + x)]! * (1 - x / e) + b.data[at(b, p, y, x)]! * (x / e);
      }
    }
  const heights = rows.map((r) => Math.min(limitH, r[0]!.dims[3]));
  const widths = rows[0]!.map((t) => Math.min(limitW, t.dims[4]));
  const [H, W] = [heights.reduce((s, v) => s + v, 0), widths.reduce((s, v) => s + v, 0)];
  const first = rows[0]![0]!;
  const out = new Float32Array(planes(first) * H * W);
  let y0 = 0;
  rows.forEach((r, i) => {
    let x0 = 0;
    r.forEach((t, j) => {
      for (let p = 0; p < planes(t); p++)
        for (let y = 0; y < heights[i]!; y++)
          for (let x = 0; x < widths[j]!; x++) out[(p * H + y0 + y) * W + x0 + x] = t.data[at(t, p, y, x)]!;
      x0 += widths[j]!;
    });
    y0 += heights[i]!;
  });
  return { data: out, dims: [first.dims[0], first.dims[1], first.dims[2], H, W] };
}
