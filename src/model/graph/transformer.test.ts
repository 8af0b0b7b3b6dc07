import { describe, expect, it } from 'vitest';
import { nodeBackend } from '../runtime/node';
import { loadCheckpoint } from '../loader/load-checkpoint';
import { localSource } from '../loader/local-source';
import { encodeModel } from '../onnx/onnx-proto';
import { prepareForward } from '../forward-inputs';
import { fixtureDir, loadFixture, relativeError } from '../test-support/fixtures';
import { buildConsisIDGraph } from './transformer';

describe('buildConsisIDGraph', () => {
  it('folded and multi-head-attention paths of the identity module agree with the reference', async () => {
    const f = loadFixture('tiny-face');
    const { config, weights } = await loadCheckpoint(localSource(fixtureDir('tiny-face')));
    const { shape, feeds } = prepareForward(config, f.args);
    const backend = nodeBackend();
    for (const foldAttention of ['always', 'never'] as const) {
      const built = buildConsisIDGraph(config, weights, shape, { foldAttention });
      const ops = new Set(built.model.graph.nodes.map((n) => n.opType));
      expect(ops.has('Softmax')).toBe(foldAttention === 'always');
      expect(ops.has('MultiHeadAttention')).toBe(true);
      const session = await backend.createSession(encodeModel(built.model), { device: 'cpu' });
      const out = await session.run(feeds);
      await session.release();
      expect(relativeError(out.sample!.data, f.expected)).toBeLessThanOrEqual(1e-4);
    }
  });

  it('counts FLOPs from the graph and emits only ops both runtimes support', async () => {
    const { config, weights } = await loadCheckpoint(localSource(fixtureDir('tiny-rope')));
    const built = buildConsisIDGraph(config, weights, { batch: 1, frames: 3, height: 8, width: 12, textLength: 5, timestepCond: true, rotary: true, face: null });
    expect(built.flops).toBeGreaterThan(0);
    const ops = new Set(built.model.graph.nodes.map((n) => (n.domain ? `${n.domain}.${n.opType}` : n.opType)));
    const supported = ['Add', 'Cast', 'Concat', 'Cos', 'Expand', 'Gather', 'Identity', 'LayerNormalization', 'MatMul', 'Mul', 'Reshape', 'Sigmoid', 'Sin', 'Slice', 'Softmax', 'Split', 'Sub', 'Transpose', 'LeakyRelu', 'com.microsoft.FastGelu', 'com.microsoft.Gelu', 'com.microsoft.MultiHeadAttention'];
    for (const op of ops) expect(supported).toContain(op);
  });
});
