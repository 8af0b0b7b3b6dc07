// One preview run in the worker: the inputs for the request, then one forward pass or a DDIM
// loop, reporting stages and each step's latents as they come. The model is behind `forward`.
import { forwardArgs, gaussian, generateInputs, numel, type F32Tensor } from './inputs.ts';
import type { RunRequest, StepFrame, Timings } from './protocol.ts';
import { createDdim, guide } from './scheduler.ts';
import type { ConsisIDConfig, ForwardArgs, HostTensor } from '../../model/index.ts';

export interface RunHooks {
  forward(args: ForwardArgs): Promise<HostTensor>;
  stage(s: string): void;
  step(frame: StepFrame): void;
}

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
): Promise<{ shape: number[]; sample: Float32Array; args?: ForwardArgs }> {
  const { spec, args: base, rotaryMs } = baseArgs(c, req);
  timings.rotaryMs = rotaryMs;
  if (req.mode === 'forward') {
    hooks.stage('forward pass');
    const out = await hooks.forward(base);
    return { shape: out.shape, sample: out.data as Float32Array, args: base };
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
  for (let i = 0; i < ddim.timesteps.length; i++) {
    const t = ddim.timesteps[i]!;
    hooks.stage(`step ${i + 1} of ${ddim.timesteps.length} (t = ${t})`);
    const before = timings.forwardMs.length;
    const hs = modelInput(x);
    let pred = (await hooks.forward({ ...base, hidden_states: hs, timestep: t })).data as Float32Array;
    if (cfg) {
      const uncond = await hooks.forward({
        ...base,
        hidden_states: hs,
        encoder_hidden_states: uncondText,
        timestep: t,
      });
      pred = guide(pred, uncond.data as Float32Array, req.guidance);
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
  return { shape: xShape, sample: x };
}
