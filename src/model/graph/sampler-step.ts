// One denoising step as its own small graph, so a sampling loop can keep its latents on the
// device: classifier-free guidance, then next = sample_scale * latents + output_scale * guided,
// the linear form of a DDIM (eta = 0) step whose coefficients the caller computes per step. All
// coefficients are inputs: one session serves every step of every schedule.
import { GraphBuilder } from '../onnx/graph-builder.ts';
import { add, concat, mul, slice, sub } from '../onnx/ops.ts';
import type { ModelDef } from '../onnx/onnx-proto.ts';

export interface SamplerStepShape {
  /** (batch, frames, channels, height, width) of the latents and of the model output */
  latents: readonly number[];
  /** the step combines a conditional and an unconditional model output */
  guidance: boolean;
  /** channels of the next model input: more than the latents' appends the fixed `conditioning` channels, fewer cuts */
  modelInputChannels: number;
}

/** the graph's input and output names */
export const SAMPLER_STEP = {
  latents: 'latents',
  output: 'model_output',
  uncond: 'model_output_uncond',
  guidanceScale: 'guidance_scale',
  sampleScale: 'sample_scale',
  outputScale: 'output_scale',
  conditioning: 'conditioning',
  nextLatents: 'next_latents',
  nextModelInput: 'next_model_input',
} as const;

export function buildSamplerStepGraph({ latents, guidance, modelInputChannels }: SamplerStepShape): ModelDef {
  if (latents.length !== 5)
    throw new Error(`latents must be (batch, frames, channels, height, width), got ${latents.length} dims`);
  const n = SAMPLER_STEP;
  const g = new GraphBuilder('sampler_step');
  const x = g.input(n.latents, 'float32', latents);
  const cond = g.input(n.output, 'float32', latents);
  const scalar = (name: string) => g.input(name, 'float32', [1]);
  let out = cond;
  if (guidance) {
    const uncond = g.input(n.uncond, 'float32', latents);
    out = add(g, uncond, mul(g, scalar(n.guidanceScale), sub(g, cond, uncond)));
  }
  const next = add(g, mul(g, scalar(n.sampleScale), x), mul(g, scalar(n.outputScale), out));
  g.output(next, n.nextLatents);
  const channels = latents[2]!;
  if (modelInputChannels > channels) {
    const extra = g.input(
      n.conditioning,
      'float32',
      latents.map((d, i) => (i === 2 ? modelInputChannels - channels : d)),
    );
    g.output(concat(g, [next, extra], 2), n.nextModelInput);
  } else if (modelInputChannels < channels) g.output(slice(g, next, 2, 0, modelInputChannels), n.nextModelInput);
  return g.toModel();
}
