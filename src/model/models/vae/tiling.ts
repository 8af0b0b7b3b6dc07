// diffusers' AutoencoderKLCogVideoX.tiled_decode with the tile size of
// enable_tiling(tile_sample_min_height, tile_sample_min_width) (default half the config's sample
// size): tiles of size / 2^(blocks - 1) latents, started every 5/6 of a tile down and 4/5 across,
// each decoded on its own (frame batches and caches per tile), then blended in raster order, in
// place: a tile takes the (already blended) tile above over its first height / 6 rows and the one to
// its left over its first width / 5 columns, linearly; each tile then gives its top-left
// (size - blend) rows and columns.
import { spatialScale, type VaeConfig } from './config.ts';
import { joinAlong, type Tensor5 } from './video-tensor.ts';

/** a tile's size in output pixels: diffusers' tile_sample_min_height / tile_sample_min_width */
export interface TileSize {
  height: number;
  width: number;
}

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

export class TileSizeError extends Error {
  override name = 'TileSizeError';
}

/** diffusers' overlap factors (tile_overlap_factor_height / _width) */
const OVERLAP: [number, number] = [1 / 6, 1 / 5];

/** the tile size diffusers uses unless enable_tiling is given one */
export const defaultTileSize = (c: VaeConfig): TileSize => ({
  height: Math.floor(c.sample_height / 2),
  width: Math.floor(c.sample_width / 2),
});

/** latents of a tile, its stride, blend and kept pixels, as tiled_decode computes them */
function geometryOf(c: VaeConfig, size: TileSize): TileGeometry {
  const s = spatialScale(c);
  const sample: [number, number] = [size.height, size.width];
  const latent = sample.map((v) => Math.trunc(v / s)) as [number, number];
  const blend = sample.map((v, i) => Math.trunc(v * OVERLAP[i]!)) as [number, number];
  const stride = latent.map((v, i) => Math.trunc(v * (1 - OVERLAP[i]!))) as [number, number];
  return { latent, stride, blend, keep: [sample[0] - blend[0], sample[1] - blend[1]] };
}

/**
 * Whether neighbouring tiles line up: a tile decodes to exactly its size, the rows a tile blends
 * are the pixels its neighbour's last rows show, and the kept parts abut. Otherwise tiled_decode
 * blends pixels of different places and its output is not 8h x 8w.
 */
export function tilesLineUp(c: VaeConfig, g: TileGeometry): boolean {
  const s = spatialScale(c);
  return [0, 1].every(
    (i) =>
      g.keep[i]! + g.blend[i]! === g.latent[i]! * s &&
      g.blend[i] === (g.latent[i]! - g.stride[i]!) * s &&
      g.keep[i] === g.stride[i]! * s,
  );
}

/** tile sizes that line up for every config: latents a multiple of 6 high and of 5 wide */
export const lineUpSize = (c: VaeConfig, rows: number, cols: number): TileSize => ({
  height: 6 * rows * spatialScale(c),
  width: 5 * cols * spatialScale(c),
});

/**
 * The geometry of a tile size; without one, the config's default (diffusers' own, taken as it is).
 * A size given must be whole pixels whose tiles line up (tilesLineUp).
 */
export function tileGeometry(c: VaeConfig, size?: TileSize): TileGeometry {
  const g = geometryOf(c, size ?? defaultTileSize(c));
  if (size) {
    for (const k of ['height', 'width'] as const)
      if (!Number.isInteger(size[k]) || size[k] < 1)
        throw new TileSizeError(`tile size: ${k} must be a positive whole number of pixels, got ${size[k]}`);
    if (!tilesLineUp(c, g)) {
      const m = lineUpSize(c, 1, 1);
      throw new TileSizeError(
        `tile size ${size.height} x ${size.width}: neighbouring tiles do not line up (tiles of ${g.latent.join(' x ')} latents every ${g.stride.join(' x ')}, blended over ${g.blend.join(' x ')} pixels); take a height that is a multiple of ${m.height} and a width that is a multiple of ${m.width}`,
      );
    }
  }
  if (g.stride[0] < 1 || g.stride[1] < 1)
    throw new TileSizeError(
      `tile size ${size ? `${size.height} x ${size.width}` : `(sample_height / sample_width ${c.sample_height} x ${c.sample_width})`}: tiles too small to step through`,
    );
  return g;
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

/**
 * mode 'auto' tiles where diffusers' decode tiles with tiling enabled: latents wider or taller than
 * a tile; `size` is the tile size given to enable_tiling
 */
export function tiledDecode(c: VaeConfig, dims: readonly number[], mode: boolean | 'auto', size?: TileSize): TilePlan {
  const [h, w] = [dims[3]!, dims[4]!];
  const geometry = tileGeometry(c, size);
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
