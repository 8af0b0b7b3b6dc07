/// <reference lib="webworker" />
// The preview's model worker: loads the checkpoint (browser cache first, else the hub) into the
// model library, and runs requests on WebGPU or WASM, the model reporting each stage's time.
import '../../zod-jitless.ts';
import { ConsisIDTransformer3DModel, graphKey } from '../../model/consisid-model.ts';
import type { ModelEnvironment } from '../../model/environment.ts';
import { prepareForward, type ForwardArgs } from '../../model/forward-inputs.ts';
import { cachedHubSource } from '../../model/loader/browser-cache.ts';
import { encodeModel } from '../../model/onnx/onnx-proto.ts';
import type { BackendSession } from '../../model/runtime/types.ts';
import type { HostTensor } from '../../model/tensor.ts';
import type { Device, LoadRequest, PreviewApi, RunEvent, Timings } from './protocol.ts';
import { runPreview } from './run-preview.ts';
import { serveRpc, type RpcContext } from './worker-rpc.ts';

declare const self: DedicatedWorkerGlobalScope;

interface Loaded {
  model: ConsisIDTransformer3DModel;
  device: Device;
  threads: number;
  fallback: boolean;
  loadMs: number;
  sessions: Map<string, Promise<{ session: BackendSession; outputShape: number[] }>>;
}

let loaded: Loaded | null = null;

async function load({ ref, device, threads, fallback }: LoadRequest) {
  const t0 = performance.now();
  const { bundledWebBackend } = await import('../../model/runtime/web-assets.ts');
  const environment: ModelEnvironment = { backend: async () => bundledWebBackend(), localSource: async () => null, defaultDevice: 'wasm' };
  const model = await ConsisIDTransformer3DModel.fromPretrained(ref.repoId, { source: cachedHubSource(ref), device, threads, environment, dtype: 'float32' });
  loaded = { model, device, threads, fallback, loadMs: performance.now() - t0, sessions: new Map() };
  return { device, loadMs: loaded.loadMs };
}

async function forward(l: Loaded, args: ForwardArgs, timings: Timings, ctx: RpcContext<RunEvent>): Promise<HostTensor> {
  const prepared = prepareForward(l.model.config, args);
  const key = graphKey(prepared.shape);
  let entry = l.sessions.get(key);
  if (!entry) {
    entry = (async () => {
      ctx.emit({ type: 'stage', stage: 'building the ONNX graph' });
      const t0 = performance.now();
      const built = l.model.buildGraph(prepared.shape);
      const bytes = encodeModel(built.model);
      const t1 = performance.now();
      timings.graphBuildMs.push(t1 - t0);
      ctx.emit({ type: 'stage', stage: `creating the ${l.device === 'webgpu' ? 'WebGPU' : 'WASM'} session` });
      let session: BackendSession;
      try {
        session = await l.model.runtime.backend.createSession(bytes, { device: l.device, threads: l.threads });
      } catch (e) {
        if (l.device !== 'webgpu' || !l.fallback) throw e;
        ctx.emit({ type: 'fallback', reason: e instanceof Error ? e.message : String(e) });
        l.device = 'wasm';
        session = await l.model.runtime.backend.createSession(bytes, { device: 'wasm', threads: l.threads });
      }
      timings.sessionCreateMs.push(performance.now() - t1);
      return { session, outputShape: [...built.outputShape] };
    })();
    entry.catch(() => l.sessions.delete(key));
    l.sessions.set(key, entry);
    for (const [k, old] of l.sessions) {
      if (k === key) continue;
      l.sessions.delete(k);
      void old.then((o) => o.session.release()).catch(() => undefined);
    }
  }
  const { session, outputShape } = await entry;
  const t = performance.now();
  const out = await session.run(prepared.feeds);
  timings.forwardMs.push(performance.now() - t);
  return { dtype: 'float32', shape: outputShape, data: out.sample!.data };
}

serveRpc<PreviewApi>(self, {
  load,
  async run(req, ctx) {
    const l = loaded;
    if (!l) throw new Error('no model is loaded');
    const timings: Timings = { loadMs: l.loadMs, graphBuildMs: [], sessionCreateMs: [], forwardMs: [], rotaryMs: 0 };
    const out = await runPreview(l.model.config, req, timings, {
      forward: (args) => forward(l, args, timings, ctx),
      stage: (stage) => ctx.emit({ type: 'stage', stage }),
      step: (frame) => ctx.emit({ type: 'step', ...frame }, [frame.latents.buffer]),
    });
    ctx.transfer(out.sample.buffer);
    return { ...out, timings, provider: l.device };
  },
});
