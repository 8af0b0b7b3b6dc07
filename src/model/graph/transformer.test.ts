import { describe, expect, it } from 'vitest';
import { nodeBackend } from '../runtime/node.ts';
import { loadCheckpoint } from '../models/consisid/load-checkpoint.ts';
import { localSource } from '../io/local-source.ts';
import { sessionModel } from '../runtime/session-model.ts';
import { checkpointFromTensors } from '../models/consisid/checkpoint-writer.ts';
import { prepareForward } from '../models/consisid/forward-inputs.ts';
import { fixtureDir, loadFixture, relativeError } from '../test-support/fixtures.ts';
import { buildConsisIDGraph } from './transformer.ts';
import { parseConfig } from './config.ts';
import { CONSISID_PREVIEW_S_CONFIG } from '../models/consisid/demo-checkpoints.ts';
import { randomWeights } from '../models/consisid/random-weights.ts';
import { prepareRotaryEmbeddings } from '../models/consisid/rope.ts';
import { tensorF32 } from '../test-support/tensors.ts';

describe('buildConsisIDGraph', () => {
  it('folded and multi-head-attention paths of the identity module agree with the reference', async () => {
    const f = loadFixture('tiny-face');
    const { config, weights, files } = await loadCheckpoint(localSource(fixtureDir('tiny-face')));
    const { shape, feeds } = prepareForward(config, f.args);
    const backend = nodeBackend();
    for (const foldAttention of ['always', 'never'] as const) {
      const built = buildConsisIDGraph(config, weights, shape, { foldAttention });
      const ops = new Set(built.model.graph.nodes.map((n) => n.opType));
      expect(ops.has('Softmax')).toBe(foldAttention === 'always');
      expect(ops.has('MultiHeadAttention')).toBe(true);
      const session = await backend.createSession(await sessionModel(built.model, files), { device: 'cpu' });
      const out = await session.run(feeds);
      await session.release();
      expect(relativeError(out.sample!.data, f.expected)).toBeLessThanOrEqual(1e-4);
    }
  });

  it('computing only the video rows in the last block changes nothing (identity module after every block)', async () => {
    const config = parseConfig({ ...CONSISID_PREVIEW_S_CONFIG, num_layers: 3, cross_attn_interval: 1 });
    const { weights, files } = await checkpointFromTensors(config, randomWeights(config, 5));
    const inputs = {
      hidden_states: tensorF32(
        Array.from({ length: 2 * 4 * 8 * 8 }, (_, i) => Math.sin(i)),
        [1, 2, 4, 8, 8],
      ),
      encoder_hidden_states: tensorF32(
        Array.from({ length: 6 * 64 }, (_, i) => Math.cos(i)),
        [1, 6, 64],
      ),
      timestep: 300,
      image_rotary_emb: prepareRotaryEmbeddings(config, { height: 64, width: 64, numFrames: 2 }),
      id_cond: tensorF32(
        Array.from({ length: 64 }, (_, i) => Math.sin(3 * i)),
        [1, 64],
      ),
      id_vit_hidden: [0, 1].map((k) =>
        tensorF32(
          Array.from({ length: 5 * 64 }, (_, i) => Math.cos(i + k)),
          [1, 5, 64],
        ),
      ),
    };
    const { shape, feeds } = prepareForward(config, inputs);
    const outs: Float32Array[] = [];
    for (const pruneLastBlockText of [true, false]) {
      const session = await nodeBackend().createSession(
        await sessionModel(buildConsisIDGraph(config, weights, shape, { pruneLastBlockText }).model, files),
        { device: 'cpu' },
      );
      outs.push((await session.run(feeds)).sample!.data);
      await session.release();
    }
    expect(relativeError(outs[0]!, outs[1]!)).toBeLessThan(1e-6);
  });

  it('counts FLOPs from the graph and emits only ops both runtimes support', async () => {
    const { config, weights } = await loadCheckpoint(localSource(fixtureDir('tiny-rope')));
    const built = buildConsisIDGraph(config, weights, {
      batch: 1,
      frames: 3,
      height: 8,
      width: 12,
      textLength: 5,
      timestepCond: true,
      rotary: true,
      face: null,
    });
    expect(built.flops).toBeGreaterThan(0);
    const ops = new Set(built.model.graph.nodes.map((n) => (n.domain ? `${n.domain}.${n.opType}` : n.opType)));
    const supported = [
      'Add',
      'Cast',
      'Concat',
      'Cos',
      'Expand',
      'Gather',
      'Gemm',
      'Identity',
      'LayerNormalization',
      'MatMul',
      'Mul',
      'Reshape',
      'Sigmoid',
      'Sin',
      'Slice',
      'Softmax',
      'Split',
      'Sub',
      'Transpose',
      'LeakyRelu',
      'com.microsoft.FastGelu',
      'com.microsoft.Gelu',
      'com.microsoft.MultiHeadAttention',
    ];
    for (const op of ops) expect(supported).toContain(op);
  });
});
