/// <reference lib="webworker" />
// The plan worker, one for the page's lifetime: it inspects checkpoints, plans each precision of a
// config at a latent size (the graph the model would build, never run) against the adapter, and
// reads, counts and empties the browser cache, so the page's thread never waits on any of it.
import '../../../zod-jitless.ts';
import type { PlanApi } from './protocol.ts';
import { serveRpc } from './rpc.ts';
import {
  browserCache,
  CheckpointPlanner,
  convertedSizes,
  inspectCheckpoint,
  outputSafetensors,
  parseUpload,
  planPreviewDecode,
  previewVaePrecision,
  specShape,
  WEIGHT_PRECISIONS,
} from '../../../model/index.ts';

declare const self: DedicatedWorkerGlobalScope;

const planner = new CheckpointPlanner();

serveRpc<PlanApi>(self, {
  inspect: ({ ref, adapter }, ctx) => inspectCheckpoint(ref, ctx.signal, (config) => planner.refusal(config, adapter)),
  fit: async (req) => planner.fit(req),
  // the decode with the checkpoint's vae/: untiled where one batch fits the budget left beside the
  // transformer, else tiled; where nothing fits beside it, after releasing its sessions; in the
  // precision the model worker's decode takes for the chosen transformer weights on this adapter
  vaeFit: async ({ vae, dims, device, adapter, transformer, budgetBytes, threads }) => {
    const page = { limits: adapter?.limits, budgetBytes, threads };
    const hasShaderF16 = async () => adapter?.shaderF16 ?? false;
    const transformerWeights = transformer?.weights ?? 'float32';
    const weights = await previewVaePrecision(vae, dims, device, transformerWeights, { ...page, hasShaderF16 });
    const plan = planPreviewDecode(vae, dims, device, { ...page, transformer, weights });
    const { precision, weightBytes, activationPeakBytes, tiles, fit, misses, beside, heldBytes, needBytes, budget } =
      plan;
    return { precision, weightBytes, activationPeakBytes, tiles, fit, misses, beside, heldBytes, needBytes, budget };
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
  upload: async ({ bytes, name, kind, config }) => parseUpload(bytes, name, kind, config),
  output: async ({ sample, shape, metadata }, ctx) => {
    const bytes = outputSafetensors(sample, shape, metadata);
    ctx.transfer(bytes.buffer);
    return bytes;
  },
});
