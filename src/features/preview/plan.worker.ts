/// <reference lib="webworker" />
// The preview's planner worker: each precision's plan of a config at a latent size (the graph the
// model would build, never run), kept per config, shape, device and attention kernel, and checked against the
// adapter, with each precision's segments on WebGPU. The full ConsisID's plan takes seconds: the page's thread never waits for it.
import '../../zod-jitless.ts';
import type { PlanApi } from './protocol.ts';
import { serveRpc } from './worker-rpc.ts';
import { fitPlans, planAttention, planPrecisions, type PrecisionPlan } from '../../model/index.ts';

declare const self: DedicatedWorkerGlobalScope;

/** the last few plans (a few MB each for the full model: every buffer's name and size) */
const KEPT = 8;
const plans = new Map<string, PrecisionPlan[]>();

serveRpc<PlanApi>(self, {
  fit: async ({ config, shape, device, adapter, heapBudget }) => {
    const attention = planAttention(device, adapter);
    const key = JSON.stringify([config, shape, device, attention]);
    let plan = plans.get(key);
    if (!plan) {
      plan = planPrecisions(config, shape, device, undefined, attention);
      plans.set(key, plan);
      if (plans.size > KEPT) plans.delete(plans.keys().next().value!);
    }
    // on WebGPU each precision's segment plan decides what passes through the heap (as the model will run it)
    return fitPlans(config, shape, plan, adapter, heapBudget);
  },
});
