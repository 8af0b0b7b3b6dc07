/// <reference lib="webworker" />
// The plan worker, one for the page's lifetime: it inspects checkpoints, plans each precision of a
// config at a latent size (the graph the model would build, never run) against the adapter, and
// reads, counts and empties the browser cache, so the page's thread never waits on any of it.
import '../../../zod-jitless.ts';
import { adapterCaps } from './adapter-caps.ts';
import type { Device, FitAnswer, FitRequest, PlanApi } from './protocol.ts';
import { serveRpc } from './rpc.ts';
import {
  browserCache,
  convertedSizes,
  inspectCheckpoint,
  defaultSpec,
  heldBudgets,
  memoryBudgetOn,
  outputSafetensors,
  parseIdentityUpload,
  parseTextUpload,
  planFit,
  planPreviewDecode,
  PRECISION_ERROR_VS_FLOAT32,
  SEGMENT_HEAP_BUDGET,
  specShape,
  WEIGHT_PRECISIONS,
  withStorage,
  type AdapterCaps,
  type ConsisIDConfig,
  type PrecisionFit,
} from '../../../model/index.ts';

declare const self: DedicatedWorkerGlobalScope;

/** the last few plans (the refusal check, the fit table and the precision default ask for the same one) */
const KEPT = 8;
const plans = new Map<string, PrecisionFit[]>();

type PlanRequest = Omit<FitRequest, 'storage' | 'adapter'> & { adapter: AdapterCaps | null };

function keptPlan({ config, spec, device, adapter, heapBudget }: PlanRequest): PrecisionFit[] {
  const shape = specShape(config, spec);
  const key = JSON.stringify([config, shape, device, adapter, heapBudget ?? null]);
  let plan = plans.get(key);
  if (!plan) {
    plan = planFit(config, shape, device, adapter, heapBudget);
    plans.set(key, plan);
    if (plans.size > KEPT) plans.delete(plans.keys().next().value!);
  }
  return plan;
}

function fit(req: FitRequest): FitAnswer {
  const memoryBudget = memoryBudgetOn(req.device, req.heapBudget) ?? SEGMENT_HEAP_BUDGET;
  const adapter = req.device === 'webgpu' ? adapterCaps(req.adapter) : null;
  const plan = keptPlan({ ...req, adapter });
  // the storage changes with every download: checked on the kept plan, which takes seconds to make
  const fits = req.storage ? withStorage(plan, req.storage, memoryBudgetOn(req.device, req.heapBudget)) : plan;
  const held = heldBudgets(fits, memoryBudget);
  return { fits, adapter, memoryBudget, held, errorVsFloat32: PRECISION_ERROR_VS_FLOAT32 };
}

/** why no precision of `config` fits any device this browser has at the latent size a run starts with; null when one does */
function refusal(config: ConsisIDConfig, adapter: AdapterCaps | null): string | null {
  const spec = defaultSpec(config);
  const devices: Device[] = adapter ? ['webgpu', 'wasm'] : ['wasm'];
  for (const device of devices)
    if (keptPlan({ config, spec, device, adapter: device === 'webgpu' ? adapter : null }).some((f) => f.fits))
      return null;
  const where = adapter ? "this WebGPU adapter's limits or the 4 GiB WASM heap" : 'the 4 GiB WASM heap';
  return `No weight precision of this checkpoint fits ${where} at ${spec.frames} latent frames of ${spec.height} x ${spec.width}: nothing was downloaded.`;
}

serveRpc<PlanApi>(self, {
  inspect: ({ ref, adapter }, ctx) =>
    inspectCheckpoint(ref, ctx.signal, (config) => refusal(config, adapterCaps(adapter))),
  fit: async (req) => fit(req),
  // the decode with the checkpoint's vae/: untiled where one batch fits the adapter and the heap, else tiled
  vaeFit: async ({ vae, dims, adapter }) => {
    const { weightBytes, activationPeakBytes, tiles, fit } = planPreviewDecode(vae, dims, adapterCaps(adapter)?.limits);
    return { weightBytes, activationPeakBytes, tiles, fit };
  },
  // each precision's graph built once more, over the checkpoint's own tensors (the query keeps the answer)
  converted: async ({ info, spec, device }) =>
    convertedSizes(info.config, info.weights, specShape(info.config, spec), device, WEIGHT_PRECISIONS),
  cached: (files) => browserCache.holds(files),
  unusable: () => browserCache.refusal(),
  // how many of the files held something (chunks or a conversion), then all of it out
  remove: async (files) => {
    const held = (await browserCache.holds(files)).filter((f) => f.bytes > 0 || f.converted.length > 0).length;
    await browserCache.remove(files.map((f) => f.url));
    return held;
  },
  clear: () => browserCache.clear(),
  upload: async ({ bytes, name, kind, config }) =>
    kind === 'text' ? { text: parseTextUpload(bytes, name, config) } : parseIdentityUpload(bytes, name, config),
  output: async ({ sample, shape, metadata }, ctx) => {
    const bytes = outputSafetensors(sample, shape, metadata);
    ctx.transfer(bytes.buffer);
    return bytes;
  },
});
