/// <reference lib="webworker" />
// The preview's model worker: loads the checkpoint (browser cache first, else the hub) into the
// model library, and runs requests on WebGPU or WASM, the model reporting each stage's time.
import '../../zod-jitless.ts';
import { ConsisIDTransformer3DModel, type ModelEvents } from '../../model/consisid-model.ts';
import type { ModelEnvironment } from '../../model/environment.ts';
import { openCache } from '../../model/loader/browser-cache.ts';
import { chunkedHubSource } from '../../model/loader/hub-file-chunks.ts';
import type { Device, LoadEvent, LoadRequest, PreviewApi, RunEvent, Timings } from './protocol.ts';
import { runPreview } from './run-preview.ts';
import { serveRpc, type RpcContext } from './worker-rpc.ts';

declare const self: DedicatedWorkerGlobalScope;

let loaded: { model: ConsisIDTransformer3DModel; loadMs: number; source: Awaited<ReturnType<typeof weightSource>> } | null = null;

/** weight files from the browser cache, or streamed from the hub into it (uncached when it refuses) */
async function weightSource({ ref, files }: LoadRequest, ctx: RpcContext<LoadEvent>) {
  const uncached = (why: string) => ctx.emit({ type: 'notice', text: `The browser cache could not keep the weights (${why}): they stream from the hub uncached.` });
  const cache = await openCache().catch((e: Error) => (uncached(e.message), null));
  const total = files.reduce((s, f) => s + f.size, 0);
  let loaded = 0;
  return chunkedHubSource(ref, files, {
    cache,
    onFetched: (n) => ctx.emit({ type: 'download', loaded: (loaded += n), total }),
    onCacheError: (e) => uncached(e.message),
  });
}

async function load(req: LoadRequest, ctx: RpcContext<LoadEvent>) {
  const { ref, device, threads, fallback } = req;
  const t0 = performance.now();
  const source = await weightSource(req, ctx);
  const { bundledWebBackend } = await import('../../model/runtime/web-assets.ts');
  const environment: ModelEnvironment = { backend: async () => bundledWebBackend(), localSource: async () => null, defaultDevice: 'wasm' };
  const model = await ConsisIDTransformer3DModel.fromPretrained(ref.repoId, {
    source,
    device,
    threads,
    environment,
    dtype: 'float32',
    // automatic choice: a WebGPU device that cannot run the graph falls back to WASM
    ...(fallback && device === 'webgpu' ? { fallbackDevice: 'wasm' as const } : {}),
    // one input shape at a time is enough for the page; older sessions are released (GPU memory)
    maxSessions: 1,
  });
  loaded = { model, loadMs: performance.now() - t0, source };
  return { device: model.device as Device, loadMs: loaded.loadMs };
}

const deviceName = (d: string) => (d === 'webgpu' ? 'WebGPU' : 'WASM');

/** the model's stage events as the page's stage lines and timings */
function events(timings: Timings, ctx: RpcContext<RunEvent>): ModelEvents {
  return {
    onStage(e) {
      if (e.state === 'start') {
        if (e.stage === 'graph') ctx.emit({ type: 'stage', stage: 'building the ONNX graph' });
        if (e.stage === 'session') ctx.emit({ type: 'stage', stage: `creating the ${deviceName(e.device)} session` });
        return;
      }
      if (e.stage === 'graph') timings.graphBuildMs.push(e.ms);
      if (e.stage === 'session') timings.sessionCreateMs.push(e.ms);
      if (e.stage === 'forward') timings.forwardMs.push(e.ms);
    },
    onFallback: (e) => ctx.emit({ type: 'fallback', reason: e.reason }),
  };
}

serveRpc<PreviewApi>(self, {
  load,
  async run(req, ctx) {
    const l = loaded;
    if (!l) throw new Error('no model is loaded');
    const timings: Timings = { loadMs: l.loadMs, graphBuildMs: [], sessionCreateMs: [], forwardMs: [], rotaryMs: 0 };
    const on = events(timings, ctx);
    const out = await runPreview(l.model.config, req, timings, {
      forward: async (args) => (await l.model.forward({ ...args, return_dict: true }, on)).sample,
      stage: (stage) => ctx.emit({ type: 'stage', stage }),
      step: (frame) => ctx.emit({ type: 'step', ...frame }, [frame.latents.buffer]),
    });
    ctx.transfer(out.sample.buffer);
    return { ...out, timings, provider: l.model.device as Device };
  },
  finishCache: async () => (loaded ? loaded.source.complete() : false),
});
