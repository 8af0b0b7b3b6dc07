/// <reference lib="webworker" />
// The preview's model worker: loads the checkpoint (browser cache first, else the hub) into the
// model library, and runs requests on WebGPU or WASM, the model reporting each stage's time.
import '../../zod-jitless.ts';
import { relativeError } from './inputs.ts';
import type { Device, LoadEvent, LoadRequest, PreviewApi, RunEvent, RunRequest, Timings } from './protocol.ts';
import { runEvents } from './run-events.ts';
import { runPreview } from './run-preview.ts';
import { asError, serveRpc, type RpcContext } from './worker-rpc.ts';
import {
  bundledWebBackend,
  chunkedHubSource,
  openCache,
  type FileSource,
  type WeightConverter,
  ConsisIDTransformer3DModel,
  type ModelEnvironment,
  type ForwardArgs,
  type WeightPrecision,
} from '../../model/index.ts';

declare const self: DedicatedWorkerGlobalScope;

let loaded: {
  model: ConsisIDTransformer3DModel;
  loadMs: number;
  source: Awaited<ReturnType<typeof weightSource>>;
  req: LoadRequest;
} | null = null;

/**
 * Where a notice goes: the call in progress. The weights are read when a session is made, on the
 * first run, after the load has returned (the headers come with the load request).
 */
let notify: (e: { type: 'notice'; text: string }) => void = () => undefined;

/** weight files from the browser cache, or streamed from the hub into it (uncached when it refuses) */
async function weightSource({ ref, files, segmentLimits, memoryBudget }: LoadRequest, ctx: RpcContext<LoadEvent>) {
  const uncached = (why: string) =>
    notify({
      type: 'notice',
      text: `The browser cache could not keep the weights (${why}): they stream from the hub uncached.`,
    });
  const cache = await openCache().catch((e: Error) => (uncached(e.message), null));
  const total = files.reduce((s, f) => s + f.size, 0);
  let loaded = 0;
  return chunkedHubSource(ref, files, {
    cache,
    onFetched: (n) => ctx.emit({ type: 'download', loaded: (loaded += n), total }),
    onCacheError: (e) => uncached(e.message),
    // converted weights the cache cannot store are held in memory beside the largest segment passing through the heap
    memoryBudget: memoryBudget ?? segmentLimits?.heapBudget,
  });
}

async function load(req: LoadRequest, ctx: RpcContext<LoadEvent>) {
  notify = (e) => ctx.emit(e);
  const t0 = performance.now();
  const source = await weightSource(req, ctx);
  const model = await openModel(req, source, req.weights);
  loaded = { model, loadMs: performance.now() - t0, source, req };
  return { device: model.device as Device, loadMs: loaded.loadMs };
}

async function openModel(
  { ref, device, threads, fallback, segmentLimits }: LoadRequest,
  source: FileSource & { converter?: WeightConverter },
  weights: WeightPrecision,
) {
  const environment: ModelEnvironment = {
    backend: async () => bundledWebBackend(),
    localSource: async () => null,
    defaultDevice: 'wasm',
  };
  return ConsisIDTransformer3DModel.fromPretrained(ref.repoId, {
    source,
    converter: source.converter,
    device,
    threads,
    environment,
    weights,
    // automatic choice: a WebGPU device that cannot run the graph falls back to WASM
    ...(fallback && device === 'webgpu' ? { fallbackDevice: 'wasm' as const } : {}),
    // one input shape at a time is enough for the page; older sessions are released (GPU memory)
    maxSessions: 1,
    // the denoising loop's latents stay on the GPU; forward() reads the sample back as before
    keepOnDevice: device === 'webgpu',
    // weights past the heap or a binding limit: segments, each session's weights passing through the heap in turn
    ...(device === 'webgpu' && segmentLimits ? { segments: 'auto' as const, segmentLimits } : {}),
  });
}

/** the same forward in float32 on the same device, and the chosen precision's error against it */
async function compareWithFloat32(
  l: NonNullable<typeof loaded>,
  args: ForwardArgs,
  sample: Float32Array,
  ctx: RpcContext<RunEvent>,
) {
  ctx.emit({ type: 'stage', stage: 'the float32 forward pass to compare with' });
  const reference = await openModel(
    { ...l.req, device: l.model.device as Device, fallback: false },
    l.source,
    'float32',
  );
  try {
    let forwardMs = 0;
    const { sample: ref } = await reference.forward(
      { ...args, return_dict: true },
      { onStage: (e) => void (e.state === 'end' && e.stage === 'forward' && (forwardMs = e.ms)) },
    );
    return { error: relativeError(sample, ref.data as Float32Array), forwardMs };
  } finally {
    await reference.release();
  }
}

/** one run request on the loaded model: the forward (its session made on the first), and the comparison when asked */
async function runModel(l: NonNullable<typeof loaded>, req: RunRequest, ctx: RpcContext<RunEvent>) {
  // like the sessions' creation, the load counts for the first run on the model only; later runs reuse both
  const timings: Timings = { loadMs: l.loadMs, graphBuildMs: [], sessionCreateMs: [], forwardMs: [], rotaryMs: 0 };
  notify = (e) => ctx.emit(e);
  l.loadMs = 0;
  const { events: on, runStage } = runEvents(timings, (e) => ctx.emit(e));
  // the last forward's arguments: their shape tells how many segments the session has
  const ran: { args?: ForwardArgs } = {};
  const out = await runPreview(l.model.config, req, timings, {
    forward: async (args) => (await l.model.forward({ ...(ran.args = args), return_dict: true }, on)).sample,
    ...(req.deviceLatents === false
      ? {}
      : { onDevice: (args: ForwardArgs) => l.model.deviceForward((ran.args = args), on) }),
    stage: runStage,
    step: (frame) => ctx.emit({ type: 'step', ...frame }, frame.latents ? [frame.latents.buffer] : []),
  });
  const session = ran.args && (await l.model.session(ran.args));
  const segments = (session && l.model.segmentsFor(session.shape, session.device)?.length) || 1;
  // a float32 model that does not fit (GPU memory) fails the comparison, not the run
  const compared =
    req.compare && out.args && l.model.weightPrecision !== 'float32'
      ? await compareWithFloat32(l, out.args, out.sample, ctx).catch((e: unknown) => ({ failed: asError(e).message }))
      : undefined;
  ctx.transfer(out.sample.buffer);
  return {
    shape: out.shape,
    sample: out.sample,
    timings,
    provider: l.model.device as Device,
    weights: l.model.weightPrecision,
    segments,
    readback: out.readback,
    ...(compared ? { compared } : {}),
  };
}

/**
 * Runs and cache finishing one after another, each with the loaded model (or none), and each
 * letting go of the cache's files when it ends: the sessions hold the weights by then, and an
 * open handle keeps the files from being cleared (or closed under another call reading them).
 */
let queue: Promise<unknown> = Promise.resolve();
function inTurn<T>(fn: (l: typeof loaded) => Promise<T>): Promise<T> {
  const next = queue.then(async () => {
    const l = loaded;
    try {
      return await fn(l);
    } finally {
      await l?.source.release();
    }
  });
  queue = next.catch(() => undefined);
  return next;
}

serveRpc<PreviewApi>(self, {
  load,
  run: (req, ctx) =>
    inTurn((l) => {
      if (!l) throw new Error('no model is loaded');
      return runModel(l, req, ctx);
    }),
  finishCache: () => inTurn(async (l) => (l ? l.source.complete() : false)),
});
