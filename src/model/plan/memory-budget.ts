// The memory budget: the bytes converted weights may hold in memory where the browser cache cannot
// store them, one segment's heap budget. It is made here, from the device and the page's heap
// budget, and every rule that reads it (the storage fit, what each precision may hold) takes this value.
import type { Device } from '../runtime/types.ts';
import { SEGMENT_HEAP_BUDGET } from './segment-plan.ts';

declare const made: unique symbol;
/** bytes, made by memoryBudget() only */
export type MemoryBudget = number & { readonly [made]: true };

/** WebGPU: `heapBudget`, the bytes one segment may pass through the heap (default SEGMENT_HEAP_BUDGET); WASM: SEGMENT_HEAP_BUDGET */
export const memoryBudget = (device: Device, heapBudget?: number): MemoryBudget =>
  ((device === 'webgpu' ? heapBudget : undefined) ?? SEGMENT_HEAP_BUDGET) as MemoryBudget;

/** what converted weights may hold in memory: the budget less the `passing` bytes one segment passes through the heap beside them */
export const heldBudget = (budget: MemoryBudget, passing: number): number => Math.max(0, budget - passing);
