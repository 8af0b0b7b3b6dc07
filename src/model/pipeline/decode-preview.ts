// The preview's decode: a run's latents (B, F, C, h, w) through the checkpoint's own VAE (its vae/
// folder), as the ConsisID pipeline decodes them (batches of latent frames, tiles where the plan
// says one batch does not fit the device), then each frame as RGBA bytes a page draws.
import type { FileSource } from '../io/file-source.ts';
import { withDefaultLimits, type WebGpuLimits } from '../plan/plan.ts';
import type { ModelEnvironment } from '../runtime/environment.ts';
import type { Device } from '../runtime/types.ts';
import { webgpuHasShaderF16 } from '../runtime/webgpu-features.ts';
import type { WeightPrecision } from '../plan/precision.ts';
import type { VaePrecision } from '../models/vae/precision.ts';
import { parseVaeConfig, type VaeConfig } from '../models/vae/config.ts';
import { vaeFromPretrained } from '../models/vae/from-pretrained.ts';
import { chooseVaeTiling, VAE_PAGE_BUDGET, type VaeBudget, type VaeTilingChoice } from '../models/vae/plan.ts';
import {
  heldBeside,
  placeDecode,
  transformerHeldBytes,
  type HeldTransformer,
  type TransformerFit,
} from './decode-beside.ts';
import { toByte, type Tensor5 } from '../models/vae/video-tensor.ts';

/**
 * a decode's plan: weights, activation peaks, the tiles chosen for the budget left beside the
 * transformer, what it misses; `beside`: whether the transformer's sessions stay (else they are
 * released first), and the bytes they hold while kept
 */
export type VaeDecodePlan = VaeTilingChoice & { beside: boolean; heldBytes: number };

/** decoded frames as RGBA bytes, row by row, each `width` x `height` */
export interface DecodedClip {
  width: number;
  height: number;
  frames: Uint8ClampedArray[];
}

/** the first video of a sample (B, 3, T, H, W) in [-1, 1], each frame mapped as the pipeline's video processor does */
export function clipOf(sample: Tensor5): DecodedClip {
  const [, c, frames, height, width] = sample.dims;
  if (c !== 3) throw new Error(`decode: the sample has ${c} channels, frames need 3 (RGB)`);
  const px = height * width;
  return {
    width,
    height,
    frames: Array.from({ length: frames }, (_, t) => {
      const rgba = new Uint8ClampedArray(px * 4).fill(255);
      for (let ch = 0; ch < 3; ch++) {
        const base = (ch * frames + t) * px;
        for (let i = 0; i < px; i++) rgba[i * 4 + ch] = toByte(sample.data[base + i]!);
      }
      return rgba;
    }),
  };
}

/** where a decode stands beside the transformer: the page's budget on its device (or `budgetBytes`) and the transformer's fit */
export interface DecodeBudgetOptions {
  /** the adapter's limits the tiling is chosen for (WebGPU's defaults for those it leaves out) */
  limits?: Partial<WebGpuLimits>;
  /** the bytes the page gives a decode on its device (default VAE_PAGE_BUDGET's) */
  budgetBytes?: number | null;
  /** the fit of the transformer whose sessions are held while the decode runs; none: nothing is held */
  transformer?: TransformerFit | null;
  /** the VAE's weights and compute precision (default float32) */
  weights?: VaePrecision;
  /** the WASM threads the decode runs (default 1): more than one takes page memory (wasmPageBytes) */
  threads?: number;
}

/**
 * What a decode of latents of these dims needs with this VAE config on `device`: untiled where one
 * batch fits the budget left beside the transformer, else the largest tiles that do; where none
 * does, the transformer's sessions released and the tiles for the whole budget (placeDecode).
 */
export const planPreviewDecode = (
  rawConfig: unknown,
  dims: readonly number[],
  device: Device,
  opts: DecodeBudgetOptions = {},
): VaeDecodePlan => {
  const held = opts.transformer ? transformerHeldBytes(opts.transformer) : 0;
  return placedPlan(parseVaeConfig(rawConfig, 'vae/config.json'), dims, device, opts, held);
};

/**
 * the page's budget for a decode on the device (WASM: JS + WASM at its thread count; WebGPU: buffers
 * and bindings), `bytes` where given
 */
const budgetFor = (device: Device, bytes?: number | null, threads?: number): VaeBudget => {
  const budget = VAE_PAGE_BUDGET[device === 'webgpu' ? 'webgpu' : 'wasm'];
  return { ...budget, ...(bytes ? { bytes } : {}), ...(threads && device !== 'webgpu' ? { threads } : {}) };
};

/** the plan placed beside `held` bytes of the transformer (placeDecode's rule) */
function placedPlan(
  config: VaeConfig,
  dims: readonly number[],
  device: Device,
  opts: Omit<DecodeBudgetOptions, 'transformer'>,
  held: number,
): VaeDecodePlan {
  const limits = withDefaultLimits(opts.limits ?? {});
  const tiling = (budget: VaeBudget) => chooseVaeTiling(config, dims, limits, budget, opts.weights ?? 'float32');
  const { plan, beside, heldBytes } = placeDecode(tiling, budgetFor(device, opts.budgetBytes, opts.threads), held);
  return { ...plan, beside, heldBytes };
}

/** what decides the preview's decode precision besides the device and the transformer's weights */
export interface DecodePrecisionOptions extends Omit<DecodeBudgetOptions, 'transformer' | 'weights'> {
  /** whether the WebGPU adapter has shader-f16 (default: ask the browser's) */
  hasShaderF16?: () => Promise<boolean>;
}

/**
 * The precision the preview decodes latents of `dims` in, once the run's transformer weights are not
 * float32 (a user who chose float32 wants float32's answer): float16 on WebGPU with the adapter's
 * shader-f16, where it computes in float16 and holds half; on WASM only where float32's smallest
 * tiles pass the page's budget (a threaded page with the released decoder), since there float16 runs
 * as float32 kernels between Casts, slower per batch, and saves only the weights' half (docs/vae.md,
 * "float16"); else float32.
 */
export async function previewVaePrecision(
  rawConfig: unknown,
  dims: readonly number[],
  device: Device,
  transformerWeights: WeightPrecision,
  { hasShaderF16 = webgpuHasShaderF16, ...budget }: DecodePrecisionOptions = {},
): Promise<VaePrecision> {
  if (transformerWeights === 'float32') return 'float32';
  if (device === 'webgpu') return (await hasShaderF16()) ? 'float16' : 'float32';
  return planPreviewDecode(rawConfig, dims, device, budget).misses.length > 0 ? 'float16' : 'float32';
}

export interface PreviewDecodeOptions {
  /** the VAE folder's files (config.json and weights as stored, or a convertedSource converting them to `weights`) */
  source: FileSource;
  /** the weights' and compute precision (default float32; previewVaePrecision says which the page takes) */
  weights?: VaePrecision;
  environment: ModelEnvironment;
  device: Device;
  threads?: number;
  /** the adapter's limits the tiling is chosen for (WebGPU's defaults for those it leaves out) */
  limits?: Partial<WebGpuLimits>;
  /** the bytes the page gives a decode on its device (default VAE_PAGE_BUDGET's) */
  budgetBytes?: number | null;
  /**
   * the loaded transformer and its fit: the decode runs beside its sessions where the budget left
   * holds it, else releases them first and calls `onRelease` (placeDecode)
   */
  transformer?: { loaded: HeldTransformer; fit: TransformerFit | null; onRelease?: () => void };
  /** after each batch of latent frames: how many ran of how many (over all tiles) */
  onBatch?: (p: { done: number; total: number }) => void;
  signal?: AbortSignal;
}

/** loads the VAE, releases the transformer's sessions where the plan says, decodes the latents batch by batch and releases its own sessions, whatever happens */
export async function decodePreview(
  latents: { data: Float32Array; dims: readonly number[] },
  opts: PreviewDecodeOptions,
): Promise<DecodedClip> {
  const { source, environment, device, threads, signal } = opts;
  const vae = await vaeFromPretrained('vae', {
    source,
    environment,
    device,
    weights: opts.weights ?? 'float32',
    // one session at a time: each holds its own copy of the weights (docs/vae.md)
    maxSessions: 1,
    ...(threads ? { threads } : {}),
    ...(signal ? { signal } : {}),
  });
  try {
    const { loaded, fit, onRelease } = opts.transformer ?? { loaded: null, fit: null };
    const budget = { limits: opts.limits, budgetBytes: opts.budgetBytes, weights: vae.precision, threads };
    const plan = placedPlan(vae.config, latents.dims, device, budget, heldBeside(fit, loaded, device));
    if (loaded && !plan.beside) {
      await loaded.release();
      onRelease?.();
    }
    const sample = await vae.decode(latents, {
      ...plan.decode,
      onBatch: (p) => opts.onBatch?.({ done: p.done + 1, total: p.total }),
      ...(signal ? { signal } : {}),
    });
    return clipOf(sample);
  } finally {
    await vae.release();
  }
}
