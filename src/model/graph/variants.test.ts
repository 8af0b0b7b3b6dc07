// Config variants the fixtures do not cover, checked against equivalent configurations.
import { describe, expect, it } from 'vitest';
import { nodeBackend } from '../runtime/node.ts';
import { sessionModel } from '../runtime/session-model.ts';
import { checkpointFromTensors } from '../models/consisid/checkpoint-writer.ts';
import {
  parseConfig,
  FEED_FORWARD_ACTIVATIONS,
  TIMESTEP_ACTIVATIONS,
  type ConsisIDConfig,
  type ConsisIDConfigInput,
} from './config.ts';
import { prepareForward, type ForwardInputs } from '../models/consisid/forward-inputs.ts';
import { randomWeights } from '../models/consisid/random-weights.ts';
import { relativeError } from '../test-support/fixtures.ts';
import type { HostTensor } from '../io/tensor.ts';
import { tensorF32 } from '../test-support/tensors.ts';
import { buildConsisIDGraph } from './transformer.ts';

const BASE: ConsisIDConfigInput = {
  num_attention_heads: 2,
  attention_head_dim: 16,
  in_channels: 4,
  out_channels: 4,
  time_embed_dim: 16,
  text_embed_dim: 8,
  num_layers: 2,
  sample_width: 8,
  sample_height: 4,
  sample_frames: 5,
  max_text_seq_length: 3,
};

const wave = (n: number, k: number) => Array.from({ length: n }, (_, i) => Math.sin(i * 0.37 + k));
const inputs = (frames = 2): ForwardInputs => ({
  hidden_states: tensorF32(wave(frames * 4 * 4 * 8, 1), [1, frames, 4, 4, 8]),
  encoder_hidden_states: tensorF32(wave(3 * 8, 2), [1, 3, 8]),
  timestep: 321,
});

async function run(
  config: ConsisIDConfig,
  weights: Map<string, HostTensor>,
  args: ForwardInputs,
): Promise<Float32Array> {
  const { shape, feeds } = prepareForward(config, args);
  const checkpoint = await checkpointFromTensors(config, weights);
  const session = await nodeBackend().createSession(
    await sessionModel(buildConsisIDGraph(config, checkpoint.weights, shape).model, checkpoint.files),
    { device: 'cpu' },
  );
  try {
    return (await session.run(feeds)).sample!.data;
  } finally {
    await session.release();
  }
}

describe('config variants', () => {
  it('norm_elementwise_affine=false equals unit-weight, zero-bias norms', async () => {
    const plain = parseConfig({ ...BASE, norm_elementwise_affine: false });
    const affine = parseConfig(BASE);
    const w = randomWeights(affine, 11);
    for (const [name, t] of w) {
      if (/(norm1\.norm|norm2\.norm|norm_final|norm_out\.norm)\.(weight|bias)$/.test(name))
        (t.data as Float32Array).fill(name.endsWith('weight') ? 1 : 0);
    }
    const wPlain = new Map(
      [...w].filter(([name]) => !/(norm1\.norm|norm2\.norm|norm_final|norm_out\.norm)\./.test(name)),
    );
    expect(relativeError(await run(plain, wPlain, inputs()), await run(affine, w, inputs()))).toBeLessThan(1e-6);
  });

  it('learned positional embeddings: a zero table equals none, and other frame counts fall back to sincos', async () => {
    const learned = parseConfig({
      ...BASE,
      use_rotary_positional_embeddings: true,
      use_learned_positional_embeddings: true,
    });
    const rotary = parseConfig({ ...BASE, use_rotary_positional_embeddings: true });
    const sincos = parseConfig(BASE);
    const w = randomWeights(learned, 12);
    (w.get('patch_embed.pos_embedding')!.data as Float32Array).fill(0);
    const wNoTable = new Map([...w].filter(([n]) => n !== 'patch_embed.pos_embedding'));
    expect(relativeError(await run(learned, w, inputs()), await run(rotary, wNoTable, inputs()))).toBeLessThan(1e-6);
    // 3 latent frames != sample_frames 5 -> (3-1)*4+1 = 9: the reference recomputes the sincos table
    expect(relativeError(await run(learned, w, inputs(3)), await run(sincos, wNoTable, inputs(3)))).toBeLessThan(1e-6);
    // (a constant would vanish in the LayerNorms: every reader of the residual stream normalizes it)
    (w.get('patch_embed.pos_embedding')!.data as Float32Array).set(
      wave(w.get('patch_embed.pos_embedding')!.data.length, 3),
    );
    expect(relativeError(await run(learned, w, inputs()), await run(rotary, wNoTable, inputs()))).toBeGreaterThan(1e-3);
    expect(() =>
      prepareForward(learned, { ...inputs(), hidden_states: tensorF32(wave(2 * 4 * 6 * 8, 1), [1, 2, 4, 6, 8]) }),
    ).toThrow(/configured size 4x8/);
  });

  it('every supported activation builds and runs to finite values', async () => {
    const outs: Float32Array[] = [];
    for (const activation_fn of FEED_FORWARD_ACTIVATIONS) {
      const c = parseConfig({ ...BASE, activation_fn, num_layers: 1 });
      outs.push(await run(c, randomWeights(c, 13), inputs()));
    }
    for (const timestep_activation_fn of TIMESTEP_ACTIVATIONS) {
      const c = parseConfig({ ...BASE, timestep_activation_fn, num_layers: 1 });
      outs.push(await run(c, randomWeights(c, 13), inputs()));
    }
    for (const o of outs) expect(o.every(Number.isFinite)).toBe(true);
    // gelu (erf) and gelu-approximate (tanh) share weight shapes: close but not identical
    const err = relativeError(outs[0]!, outs[1]!);
    expect(err).toBeGreaterThan(0);
    expect(err).toBeLessThan(1e-2);
  });
});
