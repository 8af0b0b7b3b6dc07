// The DDIM loop with its latents on the model's device (WebGPU: the GPU): the transformer and the
// step graph (guidance, DDIM update, the next model input) run there, and only the steps the page
// draws are read back.
import type { ForwardArgs } from '../models/consisid/forward-inputs.ts';
import { buildSamplerStepGraph, SAMPLER_STEP } from '../graph/sampler-step.ts';
import type { DeviceTensor } from '../runtime/types.ts';
import type { F32Tensor } from './inputs.ts';
import type { RunHooks, Timings } from './run-types.ts';
import type { DdimScheduler } from './scheduler.ts';

/** the page draws a step's latents at most this often (its frame player's interval): later steps win */
export const STEP_FRAME_INTERVAL_MS = 250;

export interface DeviceLoop {
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
export async function denoiseOnDevice(
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
