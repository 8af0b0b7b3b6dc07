// Runs in the page (bundled by vae-page-support.ts): the library's VAE decoder over the
// onnxruntime-web build the page imported, its folder fetched from the page's origin under /vae/
// (weights as Blobs, as a page's cache hands them over), decoded as the preview page decodes.
import type * as Ort from 'onnxruntime-web';
import { countGpuBuffers } from '../bench/gpu-buffer-count.ts';
import type { FileSource } from '../src/model/io/file-source.ts';
import { VaeDecoder } from '../src/model/models/vae/decoder.ts';
import { loadVae } from '../src/model/models/vae/load.ts';
import type { TileSize } from '../src/model/models/vae/tiling.ts';
import { ortWebBackend } from '../src/model/runtime/web-session.ts';

export interface PageDecodeRequest {
  device: 'wasm' | 'webgpu';
  latents: { data: number[]; dims: number[] };
  tile?: boolean;
  tileSize?: TileSize;
  /** stop after this many batches */
  batches?: number;
  /** hand back the sample (small decodes only) */
  sample?: boolean;
  /** sessions the decoder holds at once (the plan's) */
  maxSessions?: number;
  /** WASM threads (more than 1 needs the page cross-origin isolated); default 1 */
  threads?: number;
}

/** what the decode has done so far (globalThis.vaePageProgress()) */
export interface PageProgress {
  batchSeconds: number[];
  /** WebGPU: bytes of GPU buffers live now, the storage peak since the last batch, buffers made */
  gpuLive: number | null;
  gpuStoragePeak: number | null;
  gpuMade: number | null;
  gpuMadeBytes: number | null;
}

/** the GPU buffers onnxruntime made (bytes), counted at createBuffer/destroy */
export interface PageGpuBuffers {
  /** per batch (the first with its session's weights): the most bytes of storage buffers live at once */
  batchStoragePeak: number[];
  /** per batch: the most bytes of all buffers, staging included, live at once */
  batchPeak: number[];
  /** live after the batches, before the sessions go */
  liveAfter: number;
  made: number;
  /** bytes of every buffer made (on SwiftShader a destroyed buffer's memory stays until the work queued before it ends) */
  madeBytes: number;
}

export interface PageDecodeResult {
  dims: number[] | null;
  sample: number[] | null;
  /** seconds of each batch, the first with its graph and session */
  batchSeconds: number[];
  total: number;
  /** the page's JS + WASM after the batches (WASM memory never shrinks: its peak), before the sessions go */
  pageBytes: number;
  /** whether the page was cross-origin isolated (WASM threads need it) */
  isolated: boolean;
  /** WebGPU only */
  gpuBuffers: PageGpuBuffers | null;
}

const folder: FileSource = {
  describe: (file) => `/vae/${file}`,
  async read(file) {
    const r = await fetch(`/vae/${file}`);
    return r.ok ? new Uint8Array(await r.arrayBuffer()) : null;
  },
  async open(file) {
    const r = await fetch(`/vae/${file}`);
    if (!r.ok) return null;
    const blob = await r.blob();
    return {
      size: blob.size,
      blob: () => blob,
      read: async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
    };
  },
};

async function pageBytes(): Promise<number> {
  const p = performance as Performance & { measureUserAgentSpecificMemory?(): Promise<{ bytes: number }> };
  return p.measureUserAgentSpecificMemory ? (await p.measureUserAgentSpecificMemory()).bytes : NaN;
}

export async function decodeInPage(ort: typeof Ort, req: PageDecodeRequest): Promise<PageDecodeResult> {
  const g = globalThis as unknown as Record<string, { prototype: Record<string, unknown> } | undefined>;
  const buffers = req.device === 'webgpu' ? countGpuBuffers(g.GPUDevice?.prototype, g.GPUBuffer?.prototype) : null;
  const batchStoragePeak: number[] = [];
  const batchPeak: number[] = [];
  const batchSeconds: number[] = [];
  // readable while the decode runs (a long one may be stopped before it returns)
  (globalThis as { vaePageProgress?: () => PageProgress }).vaePageProgress = () => ({
    batchSeconds,
    gpuLive: buffers?.live ?? null,
    gpuStoragePeak: buffers?.storagePeak ?? null,
    gpuMade: buffers?.made ?? null,
    gpuMadeBytes: buffers?.madeBytes ?? null,
  });
  const decoder = new VaeDecoder(await loadVae(folder), {
    backend: ortWebBackend(ort),
    device: req.device,
    threads: req.threads ?? 1,
    ...(req.maxSessions ? { maxSessions: req.maxSessions } : {}),
  });
  const stop = new AbortController();
  let total = 0;
  let last = performance.now();
  try {
    const out = await decoder
      .decode(
        { data: Float32Array.from(req.latents.data), dims: req.latents.dims },
        {
          tile: req.tile ?? false,
          ...(req.tileSize ? { tileSize: req.tileSize } : {}),
          signal: stop.signal,
          onBatch: (p) => {
            const now = performance.now();
            batchSeconds.push((now - last) / 1000);
            last = now;
            total = p.total;
            if (buffers) {
              batchStoragePeak.push(buffers.storagePeak);
              batchPeak.push(buffers.peak);
              buffers.mark();
            }
            if (batchSeconds.length >= (req.batches ?? Infinity)) stop.abort();
          },
        },
      )
      .catch((e: unknown) => {
        if (stop.signal.aborted) return null;
        throw e;
      });
    return {
      dims: out && [...out.dims],
      sample: out && req.sample ? Array.from(out.data) : null,
      batchSeconds,
      total,
      pageBytes: await pageBytes(),
      isolated: crossOriginIsolated,
      gpuBuffers: buffers && {
        batchStoragePeak,
        batchPeak,
        liveAfter: buffers.live,
        made: buffers.made,
        madeBytes: buffers.madeBytes,
      },
    };
  } finally {
    await decoder.release();
  }
}
