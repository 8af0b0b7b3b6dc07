// One preview run: the inputs for the request, then one forward pass or a DDIM loop, reporting
// stages and each step's latents as they come. The model is behind `forward` (host tensors), or
// `onDevice` (the loop's latents stay where the model computes them).
import type { ConsisIDConfig } from '../graph/config.ts';
import type { ForwardArgs } from '../models/consisid/forward-inputs.ts';
import { numel } from '../io/tensor.ts';
import { denoiseOnDevice } from './denoise-on-device.ts';
import { forwardArgs, gaussian, generateInputs, type F32Tensor } from './inputs.ts';
import type { PreviewRequest, Readback, RunHooks, Timings } from './run-types.ts';
import { createDdim, guide } from './scheduler.ts';

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
export function previewArgs(
  c: ConsisIDConfig,
  req: PreviewRequest,
): { spec: PreviewRequest['spec']; args: ForwardArgs; rotaryMs: number } {
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
  req: PreviewRequest,
  timings: Timings,
  hooks: RunHooks,
  now: () => number = () => performance.now(),
): Promise<{ shape: number[]; sample: Float32Array; args?: ForwardArgs; readback: Readback }> {
  const { spec, args: base, rotaryMs } = previewArgs(c, req);
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
