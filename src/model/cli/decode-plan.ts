// How `consisid decode` runs a decode within the memory it may take: the plan's figure for the
// process (onnxruntime-node CPU: cpuProcessBytes; WASM: the page rule within its 4 GiB heap), untiled
// when that fits, else the tiles chooseVaeTiling picks; --tile forces diffusers' tiles.
import { freemem } from 'node:os';
import { UsageError, type Flags } from './flags.ts';
import type { VaeConfig } from '../models/vae/config.ts';
import type { DecodeOptions } from '../models/vae/decoder.ts';
import type { VaePrecision } from '../models/vae/precision.ts';
import { chooseVaeTiling, planVaeDecode, type VaeBudget } from '../models/vae/plan.ts';
import { wasmPageBytes } from '../models/vae/wasm-page.ts';
import { tileGeometry } from '../models/vae/tiling.ts';

const GB = 1e9;
/** onnxruntime-web's WASM heap holds at most 4 GiB */
const WASM_HEAP_BYTES = 4 * 2 ** 30;

export interface DecodeRun {
  decode: Pick<DecodeOptions, 'tile' | 'tileSize'>;
  maxSessions: number;
  /** what the plan says, for the log */
  line: string;
}

/** --memory <GB> in bytes, or the machine's free memory */
export function memoryBudget(flags: Flags, free: () => number = freemem): { bytes: number; from: string } {
  const v = flags.get('memory');
  if (v === undefined) return { bytes: free(), from: 'free memory' };
  const gb = Number(v);
  if (v.trim() === '' || !Number.isFinite(gb) || gb <= 0)
    throw new UsageError(`--memory must be a positive number of gigabytes (1e9 bytes), got ${v}`);
  return { bytes: gb * GB, from: '--memory' };
}

const gb = (b: number) => `${(b / GB).toFixed(2)} GB`;

export function planDecodeRun(
  config: VaeConfig,
  dims: readonly number[],
  device: 'cpu' | 'wasm',
  memory: { bytes: number; from: string },
  forceTile: boolean,
  precision: VaePrecision = 'float32',
): DecodeRun {
  const budget: VaeBudget =
    device === 'wasm' ? { device, bytes: Math.min(memory.bytes, WASM_HEAP_BYTES) } : { device, bytes: memory.bytes };
  const of = `of ${gb(budget.bytes)} (${memory.from}${budget.bytes < memory.bytes ? ', the WASM heap' : ''})`;
  const what = device === 'wasm' ? 'page JS + WASM' : 'process peak RSS';
  if (forceTile) {
    const plan = planVaeDecode(config, dims, { tile: true, precision });
    const need =
      device === 'wasm' ? wasmPageBytes(plan.weightBytes, plan.activationPeakBytes.cpu) : plan.cpuProcessBytes;
    return {
      decode: { tile: true },
      maxSessions: 1,
      line: `plan: ${plan.tiles} tiles (--tile), ${what} about ${gb(need)} ${of}`,
    };
  }
  const c = chooseVaeTiling(config, dims, undefined, budget, precision);
  // a tile's latents, at most the latents' own (diffusers' tile runs past the last row and column)
  const tile = c.tiled && tileGeometry(config, c.decode.tileSize).latent.map((v, i) => Math.min(v, dims[3 + i]!));
  const layout = tile ? `${c.tiles} tiles of up to ${tile.join(' x ')} latents` : 'untiled';
  const miss = c.misses.length ? `; does not fit: ${c.misses.join('; ')}` : '';
  return {
    decode: c.decode,
    maxSessions: c.maxSessions,
    line: `plan: ${layout}, ${what} about ${gb(c.needBytes)} ${of}${miss}`,
  };
}
