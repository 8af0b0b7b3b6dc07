// One preview run in the worker: the inputs for the request, then one forward pass or a DDIM
// loop, reporting stages and each step's latents as they come. The model is behind `forward`
// (host tensors), or `onDevice` (the loop's latents stay where the model computes them).
import { forwardArgs, gaussian, generateInputs, numel, type F32Tensor } from './inputs.ts';
import type { Readback, RunRequest, StepFrame, Timings } from './protocol.ts';
import { createDdim, guide, type DdimScheduler } from './scheduler.ts';
import {
  type ConsisIDConfig,
  type DeviceForward,
  type DeviceTensor,
  type ForwardArgs,
  type HostTensor,
} from '../../model/index.ts';
import { buildSamplerStepGraph, SAMPLER_STEP } from '../../model/graph/sampler-step.ts';

export interface RunHooks {
  forward(args: ForwardArgs): Promise<HostTensor>;
  /** the denoising loop on the model's device: its inputs uploaded once, the latents never read back between steps */
  onDevice?(args: ForwardArgs): Promise<DeviceForward>;
  stage(s: string): void;
  step(frame: StepFrame): void;
}

/** the page draws a step's latents at most this often (its frame player's interval): later steps win */
export const STEP_FRAME_INTERVAL_MS = 250;

const zerosLike = (t: F32Tensor): F32Tensor => ({
  dtype: 'float32',
  shape: [...t.shape],
  data: new Float32Array(t.data.length),
});

/** (1, F, a, H, W) and (1, F, b, H, W) -> (1, F, a + b, H, W) */
function concatChannels(
  x: Float32Array,
  a: number,
  y: Float32Array,
  b: number,
  frames: number,
  px: number,
): Float32Array {
  const out = new Float32Array(frames * (a + b) * px);
  for (let f = 0; f < frames; f++) {
    out.set(x.subarray(f * a * px, (f + 1) * a * px), f * (a + b) * px);
    out.set(y.subarray(f * b * px, (f + 1) * b * px), f * (a + b) * px + a * px);
  }
  return out;
}

/** the forward arguments of a request (generated from the seed, or uploaded), and the time rotary tables took */
function baseArgs(
  c: ConsisIDConfig,
  req: RunRequest,
): { spec: RunRequest['spec']; args: ForwardArgs; rotaryMs: number } {
  const spec = {
    ...req.spec,
    textLength: req.uploads.text ? req.uploads.text.shape[1]! : req.spec.textLength,
    identity: c.is_train_face,
  };
  const inputs = generateInputs(c, spec);
  if (req.uploads.text) inputs.encoder_hidden_states = req.uploads.text;
  if (c.is_train_face && req.uploads.idCond && req.uploads.idVitHidden) {
    inputs.id_cond = req.uploads.idCond;
    inputs.id_vit_hidden = req.uploads.idVitHidden;
  }
  const t = performance.now();
  const args = forwardArgs(c, inputs);
  return { spec, args, rotaryMs: c.use_rotary_positional_embeddings ? performance.now() - t : 0 };
}

/** runs the request (`args`: a forward pass's arguments); `timings.forwardMs` etc. are filled by the caller's forward() */
export async function runPreview(
  c: ConsisIDConfig,
  req: RunRequest,
  timings: Timings,
  hooks: RunHooks,
  now: () => number = () => performance.now(),
): Promise<{ shape: number[]; sample: Float32Array; args?: ForwardArgs; readback: Readback }> {
  const { spec, args: base, rotaryMs } = baseArgs(c, req);
  timings.rotaryMs = rotaryMs;
  const readback: Readback = { count: 0, bytes: 0 };
  const readBack = (data: Float32Array) => {
    readback.count++;
    readback.bytes += data.byteLength;
    return data;
  };
  if (req.mode === 'forward') {
    hooks.stage('forward pass');
    const out = await hooks.forward(base);
    return { shape: out.shape, sample: readBack(out.data as Float32Array), args: base, readback };
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
    if (extra)
      return {
        dtype: 'float32',
        shape: [1, frames, cIn, height, width],
        data: concatChannels(lat, cOut, extra, cIn - cOut, frames, px),
      };
    if (cIn === cOut) return { dtype: 'float32', shape: xShape, data: lat };
    const cut = new Float32Array(frames * cIn * px);
    for (let f = 0; f < frames; f++) cut.set(lat.subarray(f * cOut * px, f * cOut * px + cIn * px), f * cIn * px);
    return { dtype: 'float32', shape: [1, frames, cIn, height, width], data: cut };
  };
  const ddim = createDdim(req.steps);
  const cfg = req.guidance > 1;
  const uncondText = zerosLike(base.encoder_hidden_states as F32Tensor);
  if (hooks.onDevice) {
    const loop = { ddim, guidance: cfg ? req.guidance : null, x, xShape, cIn, extra, now };
    const sample = await denoiseOnDevice(base, modelInput(x), uncondText, loop, timings, hooks, readBack);
    return { shape: xShape, sample, readback };
  }
  for (let i = 0; i < ddim.timesteps.length; i++) {
    const t = ddim.timesteps[i]!;
    hooks.stage(`step ${i + 1} of ${ddim.timesteps.length} (t = ${t})`);
    const before = timings.forwardMs.length;
    const hs = modelInput(x);
    let pred = readBack((await hooks.forward({ ...base, hidden_states: hs, timestep: t })).data as Float32Array);
    if (cfg) {
      const uncond = await hooks.forward({
        ...base,
        hidden_states: hs,
        encoder_hidden_states: uncondText,
        timestep: t,
      });
      pred = guide(pred, readBack(uncond.data as Float32Array), req.guidance);
    }
    if (pred.length !== x.length)
      throw new Error(`the model output has ${pred.length} values but the latents have ${x.length}`);
    x = ddim.step(pred, i, x);
    const ms = timings.forwardMs.slice(before).reduce((a, b) => a + b, 0);
    hooks.step({
      index: i,
      total: ddim.timesteps.length,
      timestep: t,
      shape: xShape,
      latents: x.slice(),
      forwardMs: ms,
    });
  }
  return { shape: xShape, sample: x, readback };
}

interface DeviceLoop {
  ddim: DdimScheduler;
  /** the classifier-free guidance scale, or null without it */
  guidance: number | null;
  /** the first latents, (1, F, out_channels, H, W) */
  x: Float32Array;
  xShape: number[];
  cIn: number;
  /** the fixed conditioning channels of the model input, or null */
  extra: Float32Array | null;
  now(): number;
}

const scalar = (v: number) => ({ data: Float32Array.of(v), dims: [1] });

/**
 * The DDIM loop with the latents on the model's device: each step runs the transformer, then the
 * step graph (guidance, DDIM update, the next model input) on the same device. Only the latents
 * of the steps the page draws are read back (the latest once STEP_FRAME_INTERVAL_MS has passed,
 * and the last step's, which is the result); the other steps are reported without latents.
 */
async function denoiseOnDevice(
  base: ForwardArgs,
  firstInput: F32Tensor,
  uncondText: F32Tensor,
  loop: DeviceLoop,
  timings: Timings,
  hooks: RunHooks,
  readBack: (data: Float32Array) => Float32Array,
): Promise<Float32Array> {
  const { ddim, guidance, xShape, cIn, extra } = loop;
  const n = SAMPLER_STEP;
  const total = ddim.timesteps.length;
  const fwd = await hooks.onDevice!({ ...base, hidden_states: firstInput, timestep: ddim.timesteps[0]! });
  // every device tensor the loop holds, disposed however it ends
  const live = new Set<DeviceTensor>();
  const hold = (t: DeviceTensor) => (live.add(t), t);
  const drop = (t: DeviceTensor) => (live.delete(t), t.dispose());
  let reports = Promise.resolve();
  let result: Float32Array | undefined;
  const stepSession = await fwd
    .session(buildSamplerStepGraph({ latents: xShape, guidance: guidance !== null, modelInputChannels: cIn }), [
      n.nextLatents,
      n.nextModelInput,
    ])
    .catch((e: unknown) => {
      fwd.dispose();
      throw e;
    });
  try {
    const conditioningDims = xShape.map((d, i) => (i === 2 ? cIn - d : d));
    const fixed = {
      ...(guidance !== null ? { [n.guidanceScale]: scalar(guidance) } : {}),
      ...(extra ? { [n.conditioning]: hold(await fwd.upload({ data: extra, dims: conditioningDims })) } : {}),
    };
    const uncond = guidance !== null ? hold(await fwd.upload({ data: uncondText.data, dims: uncondText.shape })) : null;
    let latents = hold(await fwd.upload({ data: loop.x, dims: xShape }));
    // the model input of the next step; null: the one uploaded with the forward
    let input: DeviceTensor | null = null;
    let shownAt = -Infinity;
    for (let i = 0; i < total; i++) {
      const t = ddim.timesteps[i]!;
      hooks.stage(`step ${i + 1} of ${total} (t = ${t})`);
      const before = timings.forwardMs.length;
      const feeds = { timestep: scalar(t), ...(input ? { hidden_states: input } : {}) };
      const cond = hold(await fwd.run(feeds));
      const uncondOut = uncond ? hold(await fwd.run({ ...feeds, encoder_hidden_states: uncond })) : null;
      const { sample, output } = ddim.coefficients(i);
      const next = await stepSession.runOnDevice({
        ...fixed,
        [n.latents]: latents,
        [n.output]: cond,
        ...(uncondOut ? { [n.uncond]: uncondOut } : {}),
        [n.sampleScale]: scalar(sample),
        [n.outputScale]: scalar(output),
      });
      for (const d of [cond, uncondOut, latents, input]) if (d) drop(d);
      const nextInput = next[n.nextModelInput];
      latents = hold(next[n.nextLatents]!);
      input = nextInput ? hold(nextInput) : latents;
      const last = i === total - 1;
      const show = last || loop.now() - shownAt >= STEP_FRAME_INTERVAL_MS;
      if (show) shownAt = loop.now();
      // download() takes its copy when called: the loop goes on (and may free the latents) while it comes back
      const data = show ? latents.download().then(readBack) : Promise.resolve(undefined);
      const frame = { index: i, total, timestep: t, shape: xShape };
      const forwardMs = timings.forwardMs.slice(before).reduce((a, b) => a + b, 0);
      reports = reports.then(async () => {
        const l = await data;
        if (last) result = l;
        // the page takes the frame's buffer: the result keeps its own
        hooks.step({ ...frame, forwardMs, ...(l ? { latents: last ? l.slice() : l } : {}) });
      });
    }
    await reports;
    return result!;
  } finally {
    await reports.catch(() => undefined);
    for (const t of live) t.dispose();
    fwd.dispose();
    await stepSession.release();
  }
}
