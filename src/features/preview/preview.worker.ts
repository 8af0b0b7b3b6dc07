/// <reference lib="webworker" />
// The preview's model worker: loads the checkpoint from the browser cache into the model library,
// builds the ONNX graph for the input shape, creates the onnxruntime-web session on WebGPU or
// WASM and runs a forward pass or a DDIM loop, posting each step's latents as they come.
import '../../zod-jitless.ts';
import { ConsisIDTransformer3DModel } from '../../model/consisid-model.ts';
import type { ModelEnvironment } from '../../model/environment.ts';
import type { FileSource } from '../../model/loader/file-source.ts';
import type { ForwardArgs } from '../../model/forward-inputs.ts';
import type { HostTensor } from '../../model/tensor.ts';
import { resolveUrl, type CheckpointRef } from './checkpoint.ts';
import { forwardArgs, generateInputs, gaussian, numel, type F32Tensor } from './inputs.ts';
import type { Device, FromWorker, RunRequest, Timings, ToWorker } from './protocol.ts';
import { createDdim, guide } from './scheduler.ts';
import { cachedFile } from './weight-cache.ts';

declare const self: DedicatedWorkerGlobalScope;

const post = (m: FromWorker, transfer: Transferable[] = []) => self.postMessage(m, transfer);

/** checkpoint files from Cache Storage; a file the page did not cache comes from the hub */
function cacheSource(ref: CheckpointRef, files: string[]): FileSource {
  const known = new Set(files);
  return {
    describe: (file) => resolveUrl({ ...ref, token: null }, file),
    async read(file, opts) {
      if (!known.has(file)) return null;
      const url = resolveUrl(ref, file);
      const hit = await cachedFile(url);
      if (hit) return new Uint8Array(await hit.response.arrayBuffer());
      const r = await fetch(url, { headers: ref.token ? { authorization: `Bearer ${ref.token}` } : {}, signal: opts?.signal });
      if (r.status === 404) return null;
      if (!r.ok) throw new Error(`${file}: HTTP ${r.status} from the hub`);
      return new Uint8Array(await r.arrayBuffer());
    },
  };
}

interface Loaded {
  model: ConsisIDTransformer3DModel;
  loadMs: number;
}

let loaded: Loaded | null = null;

async function load(ref: CheckpointRef, files: string[], device: Device, threads: number, fallback: boolean) {
  const t0 = performance.now();
  const { bundledWebBackend } = await import('../../model/runtime/web-assets.ts');
  const environment: ModelEnvironment = { backend: async () => bundledWebBackend(), localSource: async () => null, defaultDevice: 'wasm' };
  const model = await ConsisIDTransformer3DModel.fromPretrained(ref.repoId, {
    source: cacheSource(ref, files),
    device,
    threads,
    environment,
    dtype: 'float32',
    // automatic choice: a WebGPU device that cannot run the graph falls back to WASM
    ...(fallback && device === 'webgpu' ? { fallbackDevice: 'wasm' as const } : {}),
    // one shape at a time is enough for the page; older sessions are released (GPU memory)
    maxSessions: 1,
    onFallback: (e) => post({ type: 'fallback', from: e.from as Device, to: e.to as Device, reason: e.reason }),
  });
  loaded = { model, loadMs: performance.now() - t0 };
  let params = 0;
  for (const w of model.weights.values()) params += numel(w.shape);
  post({ type: 'loaded', device: model.device as Device, loadMs: loaded.loadMs, params });
}

/** one forward pass; the model reports graph build, session creation and forward times apart */
async function forward(l: Loaded, args: ForwardArgs, timings: Timings, stage: (s: string) => void): Promise<HostTensor> {
  const { sample } = await l.model.forward({ ...args, return_dict: true }, {
    onStage: (e) => {
      if (e.state === 'start') {
        if (e.stage === 'graph') stage('building the ONNX graph');
        if (e.stage === 'session') stage(`creating the ${e.device === 'webgpu' ? 'WebGPU' : 'WASM'} session`);
        return;
      }
      if (e.stage === 'graph') timings.graphBuildMs.push(e.ms);
      if (e.stage === 'session') timings.sessionCreateMs.push(e.ms);
      if (e.stage === 'forward') timings.forwardMs.push(e.ms);
    },
  });
  return sample;
}

const zerosLike = (t: F32Tensor): F32Tensor => ({ dtype: 'float32', shape: [...t.shape], data: new Float32Array(t.data.length) });

/** (1, F, a, H, W) and (1, F, b, H, W) -> (1, F, a + b, H, W) */
function concatChannels(x: Float32Array, a: number, y: Float32Array, b: number, frames: number, px: number): Float32Array {
  const out = new Float32Array(frames * (a + b) * px);
  for (let f = 0; f < frames; f++) {
    out.set(x.subarray(f * a * px, (f + 1) * a * px), f * (a + b) * px);
    out.set(y.subarray(f * b * px, (f + 1) * b * px), f * (a + b) * px + a * px);
  }
  return out;
}

async function run(id: number, req: RunRequest) {
  const l = loaded;
  if (!l) throw new Error('no model is loaded');
  const c = l.model.config;
  const timings: Timings = { loadMs: l.loadMs, graphBuildMs: [], sessionCreateMs: [], forwardMs: [], rotaryMs: 0 };
  const stage = (s: string) => post({ type: 'stage', id, stage: s });
  const spec = { ...req.spec, textLength: req.uploads.text ? req.uploads.text.shape[1]! : req.spec.textLength, identity: c.is_train_face };
  const inputs = generateInputs(c, spec);
  if (req.uploads.text) inputs.encoder_hidden_states = req.uploads.text;
  if (c.is_train_face && req.uploads.idCond && req.uploads.idVitHidden) {
    inputs.id_cond = req.uploads.idCond;
    inputs.id_vit_hidden = req.uploads.idVitHidden;
  }
  const tr = performance.now();
  const base = forwardArgs(c, inputs);
  timings.rotaryMs = c.use_rotary_positional_embeddings ? performance.now() - tr : 0;

  if (req.mode === 'forward') {
    stage('forward pass');
    const out = await forward(l, base, timings, stage);
    const data = out.data as Float32Array;
    post({ type: 'done', id, shape: out.shape, sample: data, timings, provider: l.model.device }, [data.buffer]);
    return;
  }

  // DDIM loop: x holds out_channels latent channels; with in_channels > out_channels the model
  // input also carries fixed conditioning channels (ConsisID's image latents), random from the seed.
  const { frames, height, width } = spec;
  const px = height * width;
  const cOut = c.out_channels;
  const cIn = c.in_channels;
  const xShape = [1, frames, cOut, height, width];
  let x = gaussian(spec.seed, 'ddim_latents', numel(xShape));
  const extra = cIn > cOut ? gaussian(spec.seed, 'image_latents', frames * (cIn - cOut) * px) : null;
  const modelInput = (lat: Float32Array): F32Tensor => {
    if (extra) return { dtype: 'float32', shape: [1, frames, cIn, height, width], data: concatChannels(lat, cOut, extra, cIn - cOut, frames, px) };
    if (cIn === cOut) return { dtype: 'float32', shape: xShape, data: lat };
    const cut = new Float32Array(frames * cIn * px);
    for (let f = 0; f < frames; f++) cut.set(lat.subarray(f * cOut * px, f * cOut * px + cIn * px), f * cIn * px);
    return { dtype: 'float32', shape: [1, frames, cIn, height, width], data: cut };
  };
  const ddim = createDdim(req.steps);
  const cfg = req.guidance > 1;
  const uncondText = zerosLike(base.encoder_hidden_states as F32Tensor);
  for (let i = 0; i < ddim.timesteps.length; i++) {
    const t = ddim.timesteps[i]!;
    stage(`step ${i + 1} of ${ddim.timesteps.length} (t = ${t})`);
    const before = timings.forwardMs.length;
    const hs = modelInput(x);
    const cond = await forward(l, { ...base, hidden_states: hs, timestep: t }, timings, stage);
    let pred = cond.data as Float32Array;
    if (cfg) {
      const uncond = await forward(l, { ...base, hidden_states: hs, encoder_hidden_states: uncondText, timestep: t }, timings, stage);
      pred = guide(pred, uncond.data as Float32Array, req.guidance);
    }
    if (pred.length !== x.length) throw new Error(`the model output has ${pred.length} values but the latents have ${x.length}`);
    x = ddim.step(pred, i, x);
    const ms = timings.forwardMs.slice(before).reduce((a, b) => a + b, 0);
    const copy = x.slice();
    post({ type: 'step', id, index: i, total: ddim.timesteps.length, timestep: t, shape: xShape, latents: copy, forwardMs: ms }, [copy.buffer]);
  }
  post({ type: 'done', id, shape: xShape, sample: x, timings, provider: l.model.device });
}

self.onmessage = async (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  try {
    if (m.type === 'load') await load(m.ref, m.files, m.device, m.threads, m.fallback);
    else if (m.type === 'run') await run(m.id, m.request);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    post({ type: 'error', id: m.type === 'run' ? m.id : null, message });
  }
};
