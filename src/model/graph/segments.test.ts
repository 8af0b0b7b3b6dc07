import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nodeBackend } from '../runtime/node.ts';
import { loadCheckpoint } from '../models/consisid/load-checkpoint.ts';
import { type CheckpointFiles } from '../io/checkpoint-file.ts';
import { localSource } from '../io/local-source.ts';
import { sessionModel } from '../runtime/session-model.ts';
import { checkpointFromTensors } from '../models/consisid/checkpoint-writer.ts';
import { prepareForward } from '../models/consisid/forward-inputs.ts';
import { FIXTURE_CASES, fixtureDir, loadFixture, relativeError } from '../test-support/fixtures.ts';
import { parseConfig, type ConsisIDConfig } from './config.ts';
import { randomWeights } from '../models/consisid/random-weights.ts';
import { prepareRotaryEmbeddings } from '../models/consisid/rope.ts';
import { tensorF32 } from '../test-support/tensors.ts';
import { quantizationFor } from '../plan/precision.ts';
import { createSegmentedSession } from '../runtime/segmented-session.ts';
import type { FloatTensor } from '../runtime/types.ts';
import type { WeightSet } from '../io/safetensors/weight-set.ts';
import { buildConsisIDGraph, type BlockRange, type BuildOptions, type GraphShape } from './transformer.ts';
import { buildConsisIDSegments, evenSegments, segmentsAt } from './segments.ts';

interface Model {
  config: ConsisIDConfig;
  weights: WeightSet;
  files: CheckpointFiles;
  shape: GraphShape;
  feeds: Record<string, FloatTensor>;
}

async function run(m: Model, segments: readonly BlockRange[], opts: BuildOptions = {}): Promise<Float32Array> {
  const built = buildConsisIDSegments(m.config, m.weights, m.shape, segments, opts);
  const backend = nodeBackend();
  const session = await createSegmentedSession(
    built.map((b) => () => sessionModel(b.model, m.files)),
    (model) => backend.createSession(model, { device: 'cpu', threads: 1 }),
  );
  try {
    return (await session.run(m.feeds)).sample!.data;
  } finally {
    await session.release();
  }
}

async function fixtureModel(name: string): Promise<Model> {
  const { config, weights, files } = await loadCheckpoint(localSource(fixtureDir(name)));
  return { config, weights, files, ...prepareForward(config, loadFixture(name).args) };
}

/** every way to cut `layers` blocks into segments */
const allBoundaries = (layers: number): number[][] =>
  Array.from({ length: 2 ** (layers - 1) }, (_, mask) =>
    Array.from({ length: layers - 1 }, (_, i) => i + 1).filter((_, i) => mask & (1 << i)),
  );

/** external weight bytes (file, offset, length) a graph references */
const externalRefs = (model: { graph: { initializers: readonly { external?: object }[] } }): string[] =>
  model.graph.initializers.flatMap((t) => (t.external ? [JSON.stringify(t.external)] : []));

describe('the transformer in segments', () => {
  for (const name of FIXTURE_CASES) {
    it(`${name}: every choice of boundaries gives the whole graph's output`, async () => {
      const m = await fixtureModel(name);
      const whole = await run(m, [{ from: 0, to: m.config.num_layers }]);
      for (const boundaries of allBoundaries(m.config.num_layers).slice(1)) {
        const out = await run(m, segmentsAt(m.config.num_layers, boundaries));
        expect(relativeError(out, whole), `boundaries ${boundaries.join(',')}`).toBeLessThanOrEqual(1e-6);
      }
    });
  }

  it('one segment of every block is the whole graph, byte for byte', async () => {
    const m = await fixtureModel('tiny-face');
    for (const opts of [{}, { dtype: 'float16' }, { quantization: quantizationFor('int4', 'webgpu') }] as const) {
      const [only] = buildConsisIDSegments(m.config, m.weights, m.shape, [{ from: 0, to: 4 }], opts);
      const whole = buildConsisIDGraph(m.config, m.weights, m.shape, opts);
      expect(JSON.stringify(only!.model)).toBe(JSON.stringify(whole.model));
      expect(only!.outputShape).toEqual(whole.outputShape);
    }
  });

  it("each segment holds only its own blocks' weights, and together they hold the whole graph's", async () => {
    const m = await fixtureModel('tiny-face');
    const built = buildConsisIDSegments(m.config, m.weights, m.shape, evenSegments(4, 3));
    const refs = built.map((b) => externalRefs(b.model));
    const all = refs.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(all)).toEqual(new Set(externalRefs(buildConsisIDGraph(m.config, m.weights, m.shape).model)));
    const names = built.map((b) => b.model.graph.initializers.map((t) => t.name).join(' '));
    expect(names[0]).toMatch(/patch_embed\.proj\.weight/);
    expect(names[0]).toMatch(/local_facial_extractor\./);
    expect(names[1]).not.toMatch(
      /patch_embed|local_facial_extractor|time_embedding|transformer_blocks\.[013]\.|proj_out/,
    );
    expect(names[2]).toMatch(/proj_out\.weight/);
    // block 2 cross-attends: the face embedding goes from the first segment to the second only
    expect(built.map((b) => b.model.graph.inputs.map((i) => i.name).filter((n) => !n.startsWith('hidden')))).toEqual([
      ['encoder_hidden_states', 'timestep', 'id_cond', 'id_vit_hidden.0', 'id_vit_hidden.1'],
      ['temb', 'face_embedding'],
      ['temb'],
    ]);
  });

  it("gives the whole graph's output for any boundaries, precision and inputs (identity module, rotary, timestep_cond)", async () => {
    const config = parseConfig({
      num_attention_heads: 2,
      attention_head_dim: 16,
      num_layers: 6,
      in_channels: 4,
      out_channels: 4,
      time_embed_dim: 12,
      text_embed_dim: 10,
      sample_width: 8,
      sample_height: 8,
      sample_frames: 5,
      max_text_seq_length: 6,
      use_rotary_positional_embeddings: true,
      is_train_face: true,
      cross_attn_interval: 3,
      cross_attn_dim_head: 8,
      cross_attn_num_heads: 2,
      LFE_id_dim: 12,
      LFE_vit_dim: 16,
      LFE_depth: 2,
      LFE_dim_head: 8,
      LFE_num_heads: 2,
      LFE_num_id_token: 2,
      LFE_num_querie: 3,
      LFE_output_dim: 21,
      LFE_ff_mult: 2,
      LFE_num_scale: 2,
    });
    const { weights, files } = await checkpointFromTensors(config, randomWeights(config, 7));
    const wave = (n: number, k: number) => Array.from({ length: n }, (_, i) => Math.sin(i * k + 1));
    const { shape, feeds } = prepareForward(config, {
      hidden_states: tensorF32(wave(2 * 4 * 8 * 8, 0.7), [1, 2, 4, 8, 8]),
      encoder_hidden_states: tensorF32(wave(5 * 10, 1.3), [1, 5, 10]),
      timestep: 500,
      timestep_cond: tensorF32(wave(12, 0.4), [1, 12]),
      image_rotary_emb: prepareRotaryEmbeddings(config, { height: 64, width: 64, numFrames: 2 }),
      id_cond: tensorF32(wave(12, 2.1), [1, 12]),
      id_vit_hidden: [0, 1].map((k) => tensorF32(wave(4 * 16, 0.3 + k), [1, 4, 16])),
    });
    const m: Model = { config, weights, files, shape, feeds };
    const precisions = {
      float32: {},
      float16: { dtype: 'float16' },
      int8: { quantization: quantizationFor('int8', 'cpu') },
      int4: { quantization: quantizationFor('int4', 'cpu') },
    } as const;
    const wholes = new Map<string, Float32Array>();
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([1, 2, 3, 4, 5], { minLength: 1 }),
        fc.constantFrom(...(Object.keys(precisions) as (keyof typeof precisions)[])),
        async (boundaries, precision) => {
          const opts: BuildOptions = precisions[precision];
          if (!wholes.has(precision)) wholes.set(precision, await run(m, [{ from: 0, to: 6 }], opts));
          const out = await run(m, segmentsAt(6, boundaries), opts);
          // bit-exact here in float32, int8 and int4. The CPU provider computes a float16 graph in
          // float32 between the casts it inserts, so the whole graph carries the hidden states in
          // float32 from block to block where a boundary rounds them to the float16 the graph
          // declares: within float16's epsilon (5.3-6.5e-4 measured)
          const err = relativeError(out, wholes.get(precision)!);
          expect(err).toBeLessThanOrEqual(precision === 'float16' ? 2 ** -10 : 1e-6);
        },
      ),
      { numRuns: 10, seed: 23 },
    );
  });
});
