// diffusers' AutoencoderKLCogVideoX.tiled_decode: tiles of half the config's sample size (in
// latents: sample_height / 2 / 8 by sample_width / 2 / 8), started every 5/6 of a tile down and
// 4/5 across, each decoded on its own (frame batches and caches per tile), then blended in raster
// order, in place: a tile takes the (already blended) tile above over its first sample_height / 12
// rows and the one to its left over its first sample_width / 10 columns, linearly; each tile then
// gives its top-left (tile - blend) rows and columns.
import { spatialScale, type VaeConfig } from './config.ts';
import { joinAlong, type Tensor5 } from './video-tensor.ts';

export interface TileGeometry {
  /** a tile's size in latents */
  latent: [number, number];
  /** latents from one tile's start to the next's */
  stride: [number, number];
  /** output rows / columns blended with the neighbour above / to the left */
  blend: [number, number];
  /** output rows / columns each tile gives */
  keep: [number, number];
}

export function tileGeometry(c: VaeConfig): TileGeometry {
  const sampleH = Math.floor(c.sample_height / 2);
  const sampleW = Math.floor(c.sample_width / 2);
  const s = spatialScale(c);
  const latent: [number, number] = [Math.trunc(sampleH / s), Math.trunc(sampleW / s)];
  const [fh, fw] = [1 / 6, 1 / 5];
  const blend: [number, number] = [Math.trunc(sampleH * fh), Math.trunc(sampleW * fw)];
  const stride: [number, number] = [Math.trunc(latent[0] * (1 - fh)), Math.trunc(latent[1] * (1 - fw))];
  if (stride[0] < 1 || stride[1] < 1)
    throw new Error(
      `sample_height / sample_width ${c.sample_height} x ${c.sample_width} give tiles too small to step through`,
    );
  return { latent, stride, blend, keep: [sampleH - blend[0], sampleW - blend[1]] };
}

export interface TileBox {
  rows: [number, number];
  cols: [number, number];
}

/** the tiles of an (h, w) latent, row by row */
export function tileBoxes(t: TileGeometry, h: number, w: number): TileBox[][] {
  const out: TileBox[][] = [];
  for (let i = 0; i < h; i += t.stride[0]) {
    const row: TileBox[] = [];
    for (let j = 0; j < w; j += t.stride[1])
      row.push({ rows: [i, Math.min(h, i + t.latent[0])], cols: [j, Math.min(w, j + t.latent[1])] });
    out.push(row);
  }
  return out;
}

/** b's first `extent` rows (axis 3) or columns (axis 4) faded in from a's last ones, in place */
export function blendInto(a: Tensor5, b: Tensor5, axis: 3 | 4, extent: number): void {
  const e = Math.min(a.dims[axis], b.dims[axis], extent);
  const [n, c, t, bh, bw] = b.dims;
  const [ah, aw] = [a.dims[3], a.dims[4]];
  for (let p = 0; p < n * c * t; p++)
    for (let y = 0; y < (axis === 3 ? e : bh); y++)
      for (let x = 0; x < (axis === 4 ? e : bw); x++) {
        const k = axis === 3 ? y : x;
        const ay = axis === 3 ? ah - e + y : y;
        const ax = axis === 4 ? aw - e + x : x;
        const bi = (p * bh + y) * bw + x;
        const r = k / e;
        b.data[bi] = a.data[(p * ah + ay) * aw + ax]! * (1 - r) + b.data[bi]! * r;
      }
}

/** the top-left rows x cols of (B, C, T, H, W) */
function topLeft(x: Tensor5, rows: number, cols: number): Tensor5 {
  const [n, c, t, h, w] = x.dims;
  const [r, k] = [Math.min(rows, h), Math.min(cols, w)];
  if (r === h && k === w) return x;
  const out = new Float32Array(n * c * t * r * k);
  for (let p = 0; p < n * c * t; p++)
    for (let y = 0; y < r; y++) out.set(x.data.subarray((p * h + y) * w, (p * h + y) * w + k), (p * r + y) * k);
  return { data: out, dims: [n, c, t, r, k] };
}

/** decoded tiles (row by row) blended and joined as tiled_decode does */
export function blendTiles(tiles: Tensor5[][], t: TileGeometry): Tensor5 {
  tiles.forEach((row, i) =>
    row.forEach((tile, j) => {
      if (i > 0) blendInto(tiles[i - 1]![j]!, tile, 3, t.blend[0]);
      if (j > 0) blendInto(row[j - 1]!, tile, 4, t.blend[1]);
    }),
  );
  // later tiles blend from their neighbours' whole extent, so the kept parts are cut at the end
  return joinAlong(
    tiles.map((row) =>
      joinAlong(
        row.map((tile) => topLeft(tile, t.keep[0], t.keep[1])),
        4,
      ),
    ),
    3,
  );
}

export interface TilePlan {
  geometry: TileGeometry;
  boxes: TileBox[][];
  count: number;
  /** tiling asked for, whether the latents exceed a tile or not */
  forced: boolean;
  run(decode: (index: number, box: TileBox) => Promise<Tensor5>): Promise<Tensor5>;
}

/** mode 'auto' tiles where diffusers' decode tiles with tiling enabled: latents wider or taller than a tile */
export function tiledDecode(c: VaeConfig, dims: readonly number[], mode: boolean | 'auto'): TilePlan {
  const [h, w] = [dims[3]!, dims[4]!];
  const geometry = tileGeometry(c);
  const exceeds = w > geometry.latent[1] || h > geometry.latent[0];
  const tiled = mode === true || (mode === 'auto' && exceeds);
  const boxes = tiled ? tileBoxes(geometry, h, w) : [[{ rows: [0, h], cols: [0, w] } as TileBox]];
  const count = boxes.reduce((s, r) => s + r.length, 0);
  return {
    geometry,
    boxes,
    count,
    forced: tiled,
    async run(decode) {
      let index = 0;
      const tiles: Tensor5[][] = [];
      for (const row of boxes) {
        const out: Tensor5[] = [];
        for (const box of row) out.push(await decode(index++, box));
        tiles.push(out);
      }
      return tiled ? blendTiles(tiles, geometry) : tiles[0]![0]!;
    },
  };
}
