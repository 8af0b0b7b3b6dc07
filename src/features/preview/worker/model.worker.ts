/// <reference lib="webworker" />
// The model worker: Load downloads what float32 needs into the browser cache, opens the model and
// makes its session for the request's shape (the weights streaming in from the cache or the hub);
// Run reuses that session, on WebGPU or WASM, the model reporting each stage's time. Decode runs
// the checkpoint's vae/ on the run's latents, its weights through the same cache.
import '../../../zod-jitless.ts';
import type {
  DecodeBatch,
  Device,
  LoadEvent,
  LoadRequest,
  ModelApi,
  RunEvent,
  RunRequest,
  Timings,
} from './protocol.ts';

type Decode = ModelApi['decode'];
import { runEvents } from './run-events.ts';
import { asError, serveRpc, type RpcContext } from './rpc.ts';
import {
  browserCache,
  bundledWebEnvironment,
  chunkedHubSource,
  ConsisIDTransformer3DModel,
  convertedSource,
  decodePreview,
  downloadCheckpoint,
  previewArgs,
  previewVaePrecision,
  relativeError,
  runShownPreview,
  type FileSource,
  type ForwardArgs,
  type WeightPrecision,
} from '../../../model/index.ts';

declare const self: DedicatedWorkerGlobalScope;

interface Loaded {
  model: ConsisIDTransformer3DModel;
  source: Awaited<ReturnType<typeof weightSource>>;
  req: LoadRequest;
  /** the load's timings (reading the weights, the graph and the session), reported with the first run */
  firstTimings: Timings | null;
}
let loaded: Loaded | null = null;

const noTimings = (): Timings => ({ loadMs: 0, graphBuildMs: [], sessionCreateMs: [], forwardMs: [], rotaryMs: 0 });

/** Where a notice goes: the call in progress (the weights are read while a session is made). */
let notify: (e: { type: 'notice'; text: string }) => void = () => undefined;

/**
 * Weight files from the browser cache, or streamed from the hub into it (uncached when it refuses):
 * float32 keeps the files' chunks; other precisions keep the files converted, streaming them through.
 */
async function weightSource(
  { ref, files, segmentLimits, memoryBudget }: Pick<LoadRequest, 'ref' | 'files' | 'segmentLimits' | 'memoryBudget'>,
  weights: WeightPrecision,
  emit: (e: Extract<LoadEvent, { type: 'fetched' }>) => void = () => undefined,
) {
  const uncached = (why: string) =>
    notify({
      type: 'notice',
      text: `The browser cache could not keep the weights (${why}): they stream from the hub uncached.`,
    });
  const cache = await browserCache.open().catch((e: Error) => (uncached(e.message), null));
  const total = files.reduce((s, f) => s + f.size, 0);
  let fetched = 0;
  const onCacheError = (e: Error) => uncached(e.message);
  const hub = chunkedHubSource(ref, files, {
    cache: weights === 'float32' ? cache : null,
    onFetched: (n) => emit({ type: 'fetched', loaded: (fetched += n), total }),
    onCacheError,
  });
  if (weights === 'float32') return hub;
  // converted weights the cache cannot store are held in memory beside the largest segment passing through the heap
  return convertedSource(hub, cache, weights, {
    onCacheError,
    memoryBudget: memoryBudget ?? segmentLimits?.heapBudget,
  });
}

function openModel(
  { ref, device, threads, fallback, segmentLimits }: LoadRequest,
  source: FileSource,
  weights: WeightPrecision,
) {
  return ConsisIDTransformer3DModel.fromPretrained(ref.repoId, {
    source,
    device,
    threads,
    environment: bundledWebEnvironment,
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

async function load(req: LoadRequest, ctx: RpcContext<LoadEvent>): Promise<{ device: Device }> {
  notify = (e) => ctx.emit(e);
  if (req.download) {
    const r = await downloadCheckpoint(req.ref, req.files, (progress) => ctx.emit({ type: 'download', progress }));
    ctx.emit({ type: 'downloaded', ...r });
  }
  const t0 = performance.now();
  const source = await weightSource(req, req.weights, (e) => ctx.emit(e));
  const model = await openModel(req, source, req.weights);
  const timings = { ...noTimings(), loadMs: performance.now() - t0 };
  const { events } = runEvents(timings, (e) => e.type !== 'step' && ctx.emit(e));
  try {
    await model.session(previewArgs(model.config, req.request).args, events);
  } finally {
    await source.release();
  }
  loaded = { model, source, req, firstTimings: timings };
  return { device: model.device as Device };
}

/** the same forward in float32 on the same device, and the chosen precision's error against it */
async function compareWithFloat32(l: Loaded, args: ForwardArgs, sample: Float32Array, ctx: RpcContext<RunEvent>) {
  ctx.emit({ type: 'stage', stage: 'the float32 forward pass to compare with' });
  const source = await weightSource(l.req, 'float32');
  const reference = await openModel({ ...l.req, device: l.model.device as Device, fallback: false }, source, 'float32');
  try {
    let forwardMs = 0;
    const { sample: ref } = await reference.forward(
      { ...args, return_dict: true },
      { onStage: (e) => void (e.state === 'end' && e.stage === 'forward' && (forwardMs = e.ms)) },
    );
    return { error: relativeError(sample, ref.data as Float32Array), forwardMs };
  } finally {
    await reference.release();
    await source.release();
  }
}

/** one run request on the loaded model (its session made by the load), and the comparison when asked */
async function runModel(l: Loaded, req: RunRequest, ctx: RpcContext<RunEvent>) {
  // the load's timings count for the first run only; later runs reuse the session
  const timings = l.firstTimings ?? noTimings();
  l.firstTimings = null;
  notify = (e) => ctx.emit(e);
  const { events: on, runStage } = runEvents(timings, (e) => ctx.emit(e));
  // the last forward's arguments: their shape tells how many segments the session has
  const ran: { args?: ForwardArgs } = {};
  const out = await runShownPreview(l.model.config, req, timings, {
    forward: async (args) => (await l.model.forward({ ...(ran.args = args), return_dict: true }, on)).sample,
    ...(req.deviceLatents === false
      ? {}
      : { onDevice: (args: ForwardArgs) => l.model.deviceForward((ran.args = args), on) }),
    stage: runStage,
    step: (frame) => ctx.emit({ type: 'step', ...frame }, frame.view?.frames.map((f) => f.buffer) ?? []),
  });
  const session = ran.args && (await l.model.session(ran.args));
  const segments = (session && l.model.segmentsFor(session.shape, session.device)?.length) || 1;
  // a float32 model that does not fit (GPU memory) fails the comparison, not the run; the arguments stay here
  const { args, ...shown } = out;
  const compared =
    req.compare && args && l.model.weightPrecision !== 'float32'
      ? await compareWithFloat32(l, args, out.sample, ctx).catch((e: unknown) => ({ failed: asError(e).message }))
      : undefined;
  ctx.transfer(out.sample.buffer);
  const how = { timings, provider: l.model.device as Device, weights: l.model.weightPrecision, segments };
  return { ...shown, ...how, ...(compared ? { compared } : {}) };
}

/** the text a decode that released the transformer's sessions shows */
const RELEASED_NOTICE =
  "The transformer's sessions were released to make room for the decode; the next run makes them again.";

/**
 * The VAE on the loaded model's device (after any fallback), in the precision previewVaePrecision
 * picks for it and the transformer's weights (float32 through the cache's chunks, float16 converted
 * as it streams in and kept converted), beside the loaded transformer's sessions where the budget
 * left holds the decode, else after releasing them (decodePreview's rule); the model stays loaded.
 */
async function decode(
  { vae, latents, threads, limits, transformer: fit, budgetBytes, ...req }: Decode['args'],
  ctx: RpcContext<Decode['event']>,
) {
  notify = (e) => ctx.emit(e);
  const device = (loaded?.model.device as Device | undefined) ?? req.device;
  const transformerWeights = loaded?.model.weightPrecision ?? 'float32';
  const budget = { limits: limits ?? {}, budgetBytes, threads };
  const weights = await previewVaePrecision(vae.rawConfig, latents.dims, device, transformerWeights, budget);
  const source = await weightSource({ ...vae, segmentLimits: null, memoryBudget: null }, weights, (e) => ctx.emit(e));
  const onBatch = (batch: DecodeBatch) => ctx.emit({ type: 'batch', batch });
  const environment = bundledWebEnvironment;
  const onRelease = () => notify({ type: 'notice', text: RELEASED_NOTICE });
  const transformer = loaded ? { loaded: loaded.model, fit, onRelease } : undefined;
  const opts = { source, environment, device, weights, threads, signal: ctx.signal, onBatch, limits: limits ?? {} };
  const beside = { budgetBytes, ...(transformer ? { transformer } : {}) };
  const clip = await decodePreview(latents, { ...opts, ...beside }).finally(() => source.release());
  ctx.transfer(...clip.frames.map((f) => f.buffer));
  return clip;
}

/**
 * Runs, decodes and cache finishing one after another, each with the loaded model (or none), and each
 * letting go of the cache's files when it ends: the sessions hold the weights by then, and an
 * open handle keeps the files from being cleared (or closed under another call reading them).
 */
let queue: Promise<unknown> = Promise.resolve();
function inTurn<T>(fn: (l: Loaded | null) => Promise<T>): Promise<T> {
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

serveRpc<ModelApi>(self, {
  load,
  run: (req, ctx) =>
    inTurn((l) => {
      if (!l) throw new Error('no model is loaded');
      return runModel(l, req, ctx);
    }),
  finishCache: () => inTurn(async (l) => (l ? l.source.complete() : false)),
  decode: (req, ctx) => inTurn(() => decode(req, ctx)),
});
