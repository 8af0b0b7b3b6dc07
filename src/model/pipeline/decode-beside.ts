// Where a preview's decode runs: beside the transformer's sessions, which the page keeps for the next
// run, or after releasing them. Both live in one worker on one device, so the decode's budget is the
// page's budget less what the transformer holds there, as its fit plans it. One rule, here: the
// decode tiles for what is left; where no tiling fits that, the transformer's sessions are released
// and the decode tiles for the whole budget (the next run makes them again).
import type { PrecisionFit } from '../plan/fit.ts';
import type { WeightPrecision } from '../plan/precision.ts';
import type { Device } from '../runtime/types.ts';
import type { VaeBudget, VaeTilingChoice } from '../models/vae/plan.ts';

/** what the fit planned for the transformer the decode would run beside (a PrecisionFit's figures) */
export type TransformerFit = Pick<PrecisionFit, 'device' | 'weights' | 'gpuBytes' | 'heapBytes'>;

/** the loaded transformer as the decode sees it: its device and precision, and how to release its sessions */
export interface HeldTransformer {
  device: Device;
  weightPrecision: WeightPrecision;
  /** releases its sessions and keeps the model: its next forward makes them again */
  release(): Promise<void>;
}

/**
 * The bytes the transformer's session(s) hold while kept, in the decode budget's terms: on WebGPU
 * the GPU memory its fit gives (weights and activation peak, over all segments), on WASM what the
 * heap holds at once (the fit panel's "GPU memory needed" and "WASM heap at once").
 */
export const transformerHeldBytes = (fit: TransformerFit): number =>
  fit.device === 'webgpu' ? (fit.gpuBytes ?? Infinity) : fit.heapBytes;

/**
 * What the loaded transformer holds during a decode on `device`: nothing when none is loaded, its
 * fit's figure when that fit is the loaded model's (device and precision), else unknown (Infinity,
 * so the decode releases it rather than guess).
 */
export function heldBeside(fit: TransformerFit | null, loaded: HeldTransformer | null, device: Device): number {
  if (!loaded) return 0;
  const same = fit && fit.device === loaded.device && fit.weights === loaded.weightPrecision;
  return same && loaded.device === device ? transformerHeldBytes(fit) : Infinity;
}

export interface DecodePlacement {
  /** the decode's plan: its tiles chosen for the budget it has */
  plan: VaeTilingChoice;
  /** true: the transformer's sessions stay during the decode; false: they are released first */
  beside: boolean;
  /** the bytes the transformer's sessions hold while kept (they stay during the decode only `beside`) */
  heldBytes: number;
}

/**
 * The rule: with nothing held, the decode tiles for the whole budget. Else it tiles for the budget
 * less what is held, and runs beside the transformer when that plan misses nothing; otherwise the
 * transformer's sessions are released and it tiles for the whole budget (whose misses, if any,
 * stand as the decode's refusal). `tiling` chooses the tiles for a budget (chooseVaeTiling).
 */
export function placeDecode(
  tiling: (budget: VaeBudget) => VaeTilingChoice,
  budget: VaeBudget,
  heldBytes: number,
): DecodePlacement {
  if (heldBytes <= 0) return { plan: tiling(budget), beside: true, heldBytes: 0 };
  const left = budget.bytes - heldBytes;
  if (left > 0) {
    const plan = tiling({ ...budget, bytes: left });
    if (plan.misses.length === 0) return { plan, beside: true, heldBytes };
  }
  return { plan: tiling(budget), beside: false, heldBytes };
}
