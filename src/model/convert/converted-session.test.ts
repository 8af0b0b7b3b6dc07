import { describe, expect, it } from 'vitest';
import { memoryCache } from '../test-support/memory-cache.ts';
import { ConsisIDTransformer3DModel } from '../models/consisid/consisid-model.ts';
import { nodeBackend } from '../runtime/node.ts';
import { computeDtypeFor, quantizationFor, type WeightPrecision } from '../plan/precision.ts';
import { sessionModel } from '../runtime/session-model.ts';
import type { SessionModel } from '../runtime/types.ts';
import { prepareForward } from '../models/consisid/forward-inputs.ts';
import { buildConsisIDGraph } from '../graph/transformer.ts';
import { relativeError } from '../test-support/fixtures.ts';
import { conversionPlan } from './conversion-plan.ts';
import { weightConverter } from './weight-converter.ts';
import {
  bf16Checkpoint,
  buildFor,
  convertedSession,
  fixture,
  initializerBytes,
  pieces,
} from '../test-support/converted-checkpoints.ts';

/** the fixture's forward on onnxruntime-node, with the weights made at session creation and converted as they stream in */
async function forwards(precision: 'float16' | 'int4') {
  const { checkpoint, files } = await bf16Checkpoint();
  const runtime = { backend: nodeBackend(), device: 'cpu' as const, dtype: computeDtypeFor(precision, undefined) };
  const converter = weightConverter(pieces(files), { cache: memoryCache() });
  const plain = ConsisIDTransformer3DModel.fromCheckpoint(checkpoint, { ...runtime, weights: precision });
  const streamed = ConsisIDTransformer3DModel.fromCheckpoint(checkpoint, { ...runtime, weights: precision, converter });
  try {
    const computed = (await plain.forward(fixture.args)).sample.data as Float32Array;
    const converted = (await streamed.forward(fixture.args)).sample.data as Float32Array;
    return { checkpoint, converter, computed, converted };
  } finally {
    await plain.release();
    await streamed.release();
  }
}

describe('weights converted as they stream in, in place of computing them when the session is made', () => {
  for (const precision of ['int8', 'int4'] as const)
    it(`${precision}: the session model is byte for byte the one computed from the checkpoint`, async () => {
      const { checkpoint, files } = await bf16Checkpoint();
      const build = buildFor(checkpoint, precision);
      const computed = await sessionModel(build(checkpoint.weights).model, checkpoint.files);
      const converter = weightConverter(pieces(files), { cache: memoryCache(), chunkBytes: 5000 });
      // the checkpoint's own files are never read: every tensor comes converted
      const unread = new Map(
        [...checkpoint.files].map(([k, f]) => [
          k,
          {
            ...f,
            bytes: undefined,
            read: () => Promise.reject(new Error(`${k} was read`)),
          },
        ]),
      );
      const converted = await convertedSession(build, { ...checkpoint, files: unread }, precision, converter);
      expect(converted.model.graph.nodes).toEqual(computed.model.graph.nodes);
      const want = await initializerBytes(computed);
      const got = await initializerBytes(converted);
      expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
      const differ = [...want].filter(([name, b]) => !Buffer.from(b).equals(Buffer.from(got.get(name)!)));
      expect(differ.map(([name]) => name)).toEqual([]);
      // the quantized products are there (identity at 8 bits, the rest at 4 for int4), none computed from the checkpoint
      const quantized = converted.model.graph.initializers.filter((t) => /weight_(int8|q4)$/.test(t.name));
      expect(quantized.length).toBeGreaterThan(20);
      expect([...converted.externalData.keys()].filter((k) => checkpoint.files.has(k))).toEqual([]);
    });

  it('float16: bfloat16 tensors become float16 before the session (no Cast left), the forward as the computed path', async () => {
    const { checkpoint, converter, computed, converted } = await forwards('float16');
    expect(relativeError(converted, computed)).toBeLessThan(1e-6);
    const build = buildFor(checkpoint, 'float16');
    const model = await convertedSession(build, checkpoint, 'float16', converter);
    const casts = (m: SessionModel['model']) => m.graph.nodes.filter((n) => n.opType === 'Cast').length;
    expect(casts(build(checkpoint.weights).model) - casts(model.model)).toBeGreaterThan(50);
  });

  it('int4 on onnxruntime-node: the same output as the weights quantized at session creation', async () => {
    const { computed, converted } = await forwards('int4');
    expect(converted).toEqual(computed);
  });
});

describe('bfloat16 tensors widened when the session is made (WebGPU has no bfloat16 Cast)', () => {
  it("give the Cast graph's output exactly, hold no bfloat16 initializer, and are converted like the tensors they widen", async () => {
    const { checkpoint: ck } = await bf16Checkpoint();
    const shape = prepareForward(ck.config, fixture.args).shape;
    const build = (widenBfloat16: boolean, precision: WeightPrecision = 'float32') =>
      buildConsisIDGraph(ck.config, ck.weights, shape, {
        quantization: quantizationFor(precision, 'cpu'),
        widenBfloat16,
      }).model;
    const [cast, widened] = [build(false), build(true)];
    const bf16 = (m: typeof cast) => m.graph.initializers.filter((t) => t.type === 'bfloat16').length;
    expect(bf16(cast)).toBeGreaterThan(0);
    expect(bf16(widened)).toBe(0);
    const backend = nodeBackend();
    const run = async (m: typeof cast) => {
      const s = await backend.createSession(await sessionModel(m, ck.files), { device: 'cpu' });
      try {
        return (await s.run(prepareForward(ck.config, fixture.args).feeds)).sample!.data;
      } finally {
        await s.release();
      }
    };
    expect(await run(widened)).toEqual(await run(cast));
    const planned = (m: typeof cast) => [...conversionPlan(m, ck.weights, 'int4')].sort();
    expect(planned(build(true, 'int4'))).toEqual(planned(build(false, 'int4')));
  });
});
