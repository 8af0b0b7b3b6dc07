/// <reference lib="webworker" />
// The preview's planner worker: each precision's plan of a config at a latent size (the graph the
// model would build, never run) checked against the adapter, with each precision's segments on
// WebGPU, in one pass per precision (planFit), kept per config, shape, device, adapter and heap
// budget; the browser storage's rule (withStorage) is applied to the kept plan on each call. The full ConsisID's plan takes seconds: the page's thread never waits for it.
import '../../zod-jitless.ts';
import type { PlanApi } from './protocol.ts';
import { serveRpc } from './worker-rpc.ts';
import {
  convertedSizes,
  memoryBudgetOn,
  planFit,
  WEIGHT_PRECISIONS,
  withStorage,
  type PrecisionFit,
} from '../../model/index.ts';

declare const self: DedicatedWorkerGlobalScope;

/** the last few fits (the refusal check and the fit table ask for the same one) */
const KEPT = 8;
const fits = new Map<string, PrecisionFit[]>();

serveRpc<PlanApi>(self, {
  fit: async ({ config, shape, device, adapter, heapBudget, storage }) => {
    const key = JSON.stringify([config, shape, device, adapter, heapBudget ?? null]);
    let fit = fits.get(key);
    if (!fit) {
      fit = planFit(config, shape, device, adapter, heapBudget);
      fits.set(key, fit);
      if (fits.size > KEPT) fits.delete(fits.keys().next().value!);
    }
    // the storage changes with every download: checked on the kept plan, which takes seconds to make
    return storage ? withStorage(fit, storage, memoryBudgetOn(device, heapBudget)) : fit;
  },
  // each precision's graph built once more, over the checkpoint's own tensors (the query keeps the answer)
  converted: async ({ config, shape, device, weights }) =>
    convertedSizes(config, weights, shape, device, WEIGHT_PRECISIONS),
});
