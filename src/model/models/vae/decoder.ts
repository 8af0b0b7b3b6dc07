// AutoencoderKLCogVideoX.decode as the ConsisID pipeline calls it: latents (B, F, C, H, W) in the
// transformer's layout, decoded in batches of 2 latent frames (the remainder joins the first), each
// batch one run of the decoder graph whose causal-convolution caches go to the next run. Memory is
// bounded by one batch whatever the number of frames; `tile` decodes in tiles (tiling.ts).
import { sessionModel } from '../../runtime/session-model.ts';
import type { BackendSession, DeviceTensor, Feed, InferenceBackend, Device } from '../../runtime/types.ts';
import { frameBatches, type VaeConfig } from './config.ts';
import { batchSignature, buildDecoderGraph, cacheIn, cacheOut, type BatchShape } from './decoder-graph.ts';
import type { VaeCheckpoint } from './load.ts';
import type { WeightConverter } from '../../convert/weight-converter.ts';
import { graphWeights } from '../../convert/converted-source.ts';
import { checkVaePrecision, type VaePrecision } from './precision.ts';
import { tiledDecode, type TileSize } from './tiling.ts';
import { as5, cropLatents, joinAlong, type Tensor5 } from './video-tensor.ts';

export class LatentsError extends Error {
  override name = 'LatentsError';
}

export interface DecodeProgress {
  /** the batch just decoded (0-based) and how many the decode runs, over all tiles */
  done: number;
  total: number;
  tile: number;
  tiles: number;
}

export interface DecodeOptions {
  /** decode in tiles as diffusers' tiled_decode: true always, 'auto' when the latents exceed a tile, false never (default) */
  tile?: boolean | 'auto';
  /**
   * the tile size in output pixels, diffusers' enable_tiling(tile_sample_min_height,
   * tile_sample_min_width) (default half the config's sample size; chooseVaeTiling picks one that fits)
   */
  tileSize?: TileSize;
  onBatch?: (p: DecodeProgress) => void;
  signal?: AbortSignal;
}

export interface VaeDecoderOptions {
  backend: InferenceBackend;
  device: Device;
  /** float32 (default) or float16: the graphs compute in it (WebGPU needs the adapter's shader-f16) */
  weights?: VaePrecision;
  /** converts the weights to `weights` as they download (a convertedSource's; absent: the stored tensors, cast in the graph) */
  converter?: WeightConverter;
  threads?: number;
  /** sessions kept, one per batch shape (first batch, later batches, edge tiles) */
  maxSessions?: number;
  /**
   * keep each session after the decode (default false: a session is released once the decode runs its
   * shape no more, so the first batch's weights and activation arena are gone before the later batches run)
   */
  keepSessions?: boolean;
}

export function checkLatents(config: VaeConfig, dims: readonly number[]): Tensor5['dims'] {
  if (dims.length !== 5)
    throw new LatentsError(`latents: expected (batch, frames, channels, height, width), got [${dims.join(', ')}]`);
  if (dims[2] !== config.latent_channels)
    throw new LatentsError(
      `latents: ${dims[2]} channels in axis 2 of [${dims.join(', ')}], the VAE's latent_channels is ${config.latent_channels} (layout (batch, frames, channels, height, width))`,
    );
  if (dims.some((d) => !Number.isInteger(d) || d < 1))
    throw new LatentsError(`latents: every dimension must be positive, got [${dims.join(', ')}]`);
  return dims as Tensor5['dims'];
}

export class VaeDecoder {
  private readonly sessions = new Map<string, Promise<BackendSession>>();
  /** runs left per batch shape in the decode under way */
  private remaining: Map<string, number> | null = null;

  /** the weights' precision, which the graphs compute in */
  readonly precision: VaePrecision;

  constructor(
    readonly checkpoint: VaeCheckpoint,
    private readonly opts: VaeDecoderOptions,
  ) {
    this.precision = checkVaePrecision(opts.weights ?? 'float32');
  }

  get config(): VaeConfig {
    return this.checkpoint.config;
  }

  private session(shape: BatchShape): Promise<BackendSession> {
    const key = batchSignature(shape);
    let s = this.sessions.get(key);
    if (!s) {
      const max = this.opts.maxSessions ?? 4;
      while (this.sessions.size >= max) {
        const [oldest, p] = this.sessions.entries().next().value!;
        this.sessions.delete(oldest);
        void p.then((x) => x.release()).catch(() => undefined);
      }
      s = (async () => {
        const build = (weights = this.checkpoint.weights) =>
          buildDecoderGraph(this.config, weights, shape, this.precision).model;
        const { weights, files } = await graphWeights(this.checkpoint, this.opts.converter, this.precision, build);
        const model = await sessionModel(build(weights), files);
        return this.opts.backend.createSession(model, {
          device: this.opts.device,
          threads: this.opts.threads,
          float16: this.precision === 'float16',
          // no CPU memory arena: a lower peak RSS for about the same time (docs/vae.md, "CPU memory")
          memArena: false,
        });
      })();
      s.catch(() => this.sessions.delete(key));
      this.sessions.set(key, s);
    }
    return s;
  }

  /** the batch shapes a decode of latents of these dims runs, in order */
  batchShapes(dims: readonly number[], tile: boolean | 'auto' = false, tileSize?: TileSize): BatchShape[] {
    const [b, f] = checkLatents(this.config, dims);
    return tiledDecode(this.config, dims, tile, tileSize).boxes.flatMap((row) =>
      row.flatMap((box) =>
        frameBatches(f).map(([start, end], k) => ({
          batch: b,
          frames: end - start,
          height: box.rows[1] - box.rows[0],
          width: box.cols[1] - box.cols[0],
          first: k === 0,
        })),
      ),
    );
  }

  /** builds the graphs and creates the sessions a decode of latents of these dims runs (as decode would on its way) */
  async prepare(dims: readonly number[], tile: boolean | 'auto' = false, tileSize?: TileSize): Promise<void> {
    for (const shape of this.batchShapes(dims, tile, tileSize)) await this.session(shape);
  }

  /** one run of a shape done: its session goes when the decode needs it no more (unless kept) */
  private async ran(shape: BatchShape): Promise<void> {
    const key = batchSignature(shape);
    const left = this.remaining?.get(key);
    if (left === undefined || this.opts.keepSessions) return;
    this.remaining!.set(key, left - 1);
    if (left > 1) return;
    const s = this.sessions.get(key);
    this.sessions.delete(key);
    await (await s?.catch(() => null))?.release();
  }

  /** the untiled decode of latents (B, F, C, h, w): sample (B, out_channels, frames, 8h, 8w) */
  async decodeFrames(
    latents: Tensor5,
    onBatch?: (done: number, total: number) => void,
    signal?: AbortSignal,
  ): Promise<Tensor5> {
    const [b, f, , h, w] = latents.dims;
    const batches = frameBatches(f);
    const parts: Tensor5[] = [];
    let caches: DeviceTensor[] = [];
    try {
      for (const [k, [start, end]] of batches.entries()) {
        signal?.throwIfAborted();
        const shape: BatchShape = { batch: b, frames: end - start, height: h, width: w, first: k === 0 };
        const session = await this.session(shape);
        const z = cropLatents(latents, [start, end], [0, h], [0, w]);
        const feeds: Record<string, Feed> = { latents: z };
        caches.forEach((c, i) => (feeds[cacheIn(i)] = c));
        const out = await session.runOnDevice(feeds);
        await this.ran(shape);
        for (const c of caches) c.dispose();
        caches = Object.keys(out)
          .filter((n) => n.startsWith('cache_out.'))
          .map((_, i) => out[cacheOut(i)]!);
        const sample = out.sample!;
        parts.push({ data: await sample.download(), dims: as5(sample.dims, 'sample') });
        sample.dispose();
        onBatch?.(k, batches.length);
      }
    } finally {
      for (const c of caches) c.dispose();
    }
    return joinAlong(parts, 2);
  }

  /** `vae.decode(latents.permute(0, 2, 1, 3, 4) / scaling_factor).sample` for latents (B, F, C, h, w) */
  async decode(latents: { data: Float32Array; dims: readonly number[] }, opts: DecodeOptions = {}): Promise<Tensor5> {
    const dims = checkLatents(this.config, latents.dims);
    const z: Tensor5 = { data: latents.data, dims };
    const tiles = tiledDecode(this.config, dims, opts.tile ?? false, opts.tileSize);
    const perTile = frameBatches(dims[1]).length;
    const progress = (tile: number) => (done: number) =>
      opts.onBatch?.({ done: tile * perTile + done, total: tiles.count * perTile, tile, tiles: tiles.count });
    this.remaining = new Map();
    for (const shape of this.batchShapes(dims, opts.tile ?? false, opts.tileSize)) {
      const key = batchSignature(shape);
      this.remaining.set(key, (this.remaining.get(key) ?? 0) + 1);
    }
    try {
      if (tiles.count === 1 && !tiles.forced) return await this.decodeFrames(z, progress(0), opts.signal);
      return await tiles.run((i, box) =>
        this.decodeFrames(cropLatents(z, [0, dims[1]], box.rows, box.cols), progress(i), opts.signal),
      );
    } finally {
      this.remaining = null;
    }
  }

  async release(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    for (const s of all) await (await s.catch(() => null))?.release();
  }
}
