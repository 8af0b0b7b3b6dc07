import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { localSource } from '../../io/local-source.ts';
import { memorySource } from '../../io/memory-source.ts';
import type { FileSource } from '../../io/file-source.ts';
import { nodeBackend } from '../../runtime/node.ts';
import { relativeError } from '../../io/tensor.ts';
import { parseVaeConfig } from './config.ts';
import { VaeDecoder } from './decoder.ts';
import { loadVae } from './load.ts';
import { loadVaeCase, randomLatents, vaeCaseDir } from './test-fixtures.ts';
import { randomVaeFiles, SMALL_VAE_CONFIG } from './random-vae.ts';
import {
  lineUpSize,
  tileBoxes,
  tiledDecode,
  tileGeometry,
  tilesLineUp,
  TileSizeError,
  type TileSize,
} from './tiling.ts';
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
    const reference = await referenceTiledDecode(d, latents, { height: 48, width: 40 });
    expect(tiled.dims).toEqual([1, 3, 17, 48, 80]);
    expect(relativeError(tiled.data, reference.data)).toBeLessThan(1e-7);
    // an untiled decode differs (each tile sees only its own latents)
    expect(relativeError((await d.decode(latents)).data, tiled.data)).toBeGreaterThan(1e-3);
  }, 180_000); // three decodes of the real-shape case: minutes on a loaded 2-core machine

  it("a decode with a tile size given is the reference's tiled decode with that size (enable_tiling's)", async () => {
    const files = randomVaeFiles({ ...SMALL_VAE_CONFIG, latent_channels: 4 }, { seed: 13 });
    const d = new VaeDecoder(await loadVae(memorySource(files)), { backend: nodeBackend(), device: 'cpu', threads: 1 });
    opened.push(d);
    const z = randomLatents([1, 3, 4, 10, 13], 21);
    const size = { height: 12, width: 20 }; // tiles of 6 x 10 latents every 5 x 8
    const tiled = await d.decode(z, { tile: 'auto', tileSize: size });
    const reference = await referenceTiledDecode(d, z, size);
    expect(tiled.dims).toEqual([1, 3, 5, 20, 26]);
    expect(relativeError(tiled.data, reference.data)).toBeLessThan(1e-7);
    // the config's own tiles (120 x 180 pixels) hold these latents whole: 'auto' does not tile
    expect(relativeError((await d.decode(z, { tile: 'auto' })).data, tiled.data)).toBeGreaterThan(1e-3);
  });

  it('a tile size whose tiles do not line up is refused before any batch, naming the sizes that do', async () => {
    const c = parseVaeConfig({});
    expect(() => tileGeometry(c, { height: 128, width: 120 })).toThrow(
      /tile size 128 x 120: .*do not line up.*multiple of 48 .*multiple of 40/,
    );
    expect(() => tileGeometry(c, { height: 48, width: 0 })).toThrow(TileSizeError);
    const files = randomVaeFiles({ ...SMALL_VAE_CONFIG, latent_channels: 4 }, { seed: 13 });
    let batches = 0;
    const d = new VaeDecoder(await loadVae(memorySource(files)), { backend: nodeBackend(), device: 'cpu', threads: 1 });
    opened.push(d);
    await expect(
      d.decode(randomLatents([1, 3, 4, 10, 13], 1), {
        tile: true,
        tileSize: { height: 13, width: 20 },
        onBatch: () => batches++,
      }),
    ).rejects.toThrow(TileSizeError);
    expect(batches).toBe(0);
  });

  it('tiles that line up give back, blended, the image whose parts they decode: every pixel once, blends of the same place', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        async (blocks, h, w, rows, cols) => {
          const c = parseVaeConfig({ block_out_channels: Array(blocks).fill(32) });
          const size = lineUpSize(c, rows, cols);
          expect(tilesLineUp(c, tileGeometry(c, size))).toBe(true);
          const s = 2 ** (blocks - 1);
          const image = randomLatents([1, 1, 1, h * s, w * s], h * 41 + w);
          const plan = tiledDecode(c, [1, 1, 16, h, w], true, size);
          const out = await plan.run(async (_, box) =>
            cropLatents(image, [0, 1], [box.rows[0] * s, box.rows[1] * s], [box.cols[0] * s, box.cols[1] * s]),
          );
          expect(out.dims).toEqual(image.dims);
          expect(out.data).toEqual(image.data);
        },
      ),
      { numRuns: 100 },
    );
  });
});

/**
 * diffusers' tiled_decode written out loop by loop as the Python does after
 * enable_tiling(tile_sample_min_height, tile_sample_min_width) (tiles decoded untiled, blend_v /
 * blend_h in place in raster order, then the kept corners concatenated), over 5-D index arithmetic
 * of its own.
 */
async function referenceTiledDecode(d: VaeDecoder, z: Tensor5, tile: TileSize): Promise<Tensor5> {
  const sampleH = tile.height;
  const sampleW = tile.width;
  const latH = Math.trunc(sampleH / 2 ** (d.config.block_out_channels.length - 1));
  const latW = Math.trunc(sampleW / 2 ** (d.config.block_out_channels.length - 1));
  const overlapH = Math.trunc(latH * (1 - 1 / 6));
  const overlapW = Math.trunc(latW * (1 - 1 / 5));
  const extentH = Math.trunc(sampleH * (1 / 6));
  const extentW = Math.trunc(sampleW * (1 / 5));
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
