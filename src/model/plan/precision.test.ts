// Each weight precision against the golden fixtures, with its measured, stated tolerance.
import { afterAll, describe, expect, it } from 'vitest';
import { ConsisIDTransformer3DModel } from '../node.ts';
import type { ConsisIDTransformer3DModel as Model } from '../models/consisid/consisid-model.ts';
import {
  FIXTURE_CASES,
  PRECISION_TOLERANCE,
  fixtureDir,
  loadFixture,
  relativeError,
} from '../test-support/fixtures.ts';
import { prepareForward } from '../models/consisid/forward-inputs.ts';
import { tensorBytes } from '../onnx/onnx-proto.ts';
import { computeDtypeFor, quantizationFor, type WeightPrecision } from './precision.ts';
import { ConsisIDTransformer3DModel as BaseModel } from '../models/consisid/consisid-model.ts';
import { loadCheckpoint } from '../models/consisid/load-checkpoint.ts';
import { localSource } from '../io/local-source.ts';
import { nodeBackend } from '../runtime/node.ts';
import { webBackend } from '../runtime/web.ts';
import type { InferenceBackend } from '../runtime/types.ts';

const opened: Model[] = [];
afterAll(async () => {
  for (const m of opened) await m.release();
});

async function open(name: string, weights: WeightPrecision, device: 'cpu' | 'wasm' = 'cpu'): Promise<Model> {
  const m = await ConsisIDTransformer3DModel.fromPretrained(fixtureDir(name), { device, weights });
  opened.push(m);
  return m;
}

describe('weight precisions against the reference', () => {
  for (const weights of ['float16', 'int8', 'int4'] as const) {
    for (const name of FIXTURE_CASES) {
      it(`${name} ${weights}: within ${PRECISION_TOLERANCE[weights]} of the reference, and not bit-identical to float32`, async () => {
        const f = loadFixture(name);
        const m = await open(name, weights);
        const err = relativeError((await m.forward(f.args)).sample.data as Float32Array, f.expected);
        expect(err).toBeLessThanOrEqual(PRECISION_TOLERANCE[weights]);
        // a precision that silently ran float32 would be about 2e-7 off
        expect(err).toBeGreaterThan(1e-5);
      });
    }
  }

  for (const weights of ['int8', 'int4'] as const) {
    it(`tiny-face ${weights} on onnxruntime-web WASM: the same graph, within the same tolerance`, async () => {
      const f = loadFixture('tiny-face');
      const m = await open('tiny-face', weights, 'wasm');
      expect(relativeError((await m.forward(f.args)).sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(
        PRECISION_TOLERANCE[weights],
      );
    });
  }

  it('tiny-face in every precision without prepacked weights on cpu (what `consisid forward` runs for float weights), and prepacked on wasm: within each tolerance', async () => {
    const f = loadFixture('tiny-face');
    const tolerance = { float32: f.meta.tolerance.max_abs_error_relative_to_max_abs_expected, ...PRECISION_TOLERANCE };
    for (const [device, prepack] of [
      ['cpu', false],
      ['wasm', true],
    ] as const) {
      for (const weights of ['float32', 'float16', 'int8', 'int4'] as const) {
        const m = await ConsisIDTransformer3DModel.fromPretrained(fixtureDir('tiny-face'), {
          device,
          weights,
          prepack,
        });
        try {
          const err = relativeError((await m.forward(f.args)).sample.data as Float32Array, f.expected);
          expect(err, `${weights} on ${device}, prepack ${prepack}`).toBeLessThanOrEqual(tolerance[weights]);
        } finally {
          await m.release();
        }
      }
    }
  });

  it('quantized graphs: int8 weight-only on every device, int4 in 4-bit blocks with the identity module at 8 bits; fewer weight bytes', async () => {
    const f = loadFixture('tiny-face');
    const bytes: Record<string, number> = {};
    for (const weights of ['float32', 'int8', 'int4'] as const) {
      const m = await open('tiny-face', weights);
      const shape = prepareForward(m.config, f.args).shape;
      bytes[weights] = m.buildGraph(shape).model.graph.initializers.reduce((s, t) => s + tensorBytes(t), 0);
      for (const device of ['cpu', 'webgpu'] as const) {
        const graph = m.buildGraph(shape, device).model.graph;
        const ops = graph.nodes.map((n) => n.opType);
        // no activation is quantized at run time: per-tensor int8 activations were 1.2e-1 off on heavy weights
        expect(ops).not.toContain('DynamicQuantizeMatMul');
        if (weights === 'float32') {
          expect(ops).not.toContain('MatMulNBits');
          expect(ops).not.toContain('DequantizeLinear');
          continue;
        }
        const dequantized = graph.nodes.filter((n) => n.opType === 'DequantizeLinear').map((n) => n.inputs[0]!);
        const nbits = graph.nodes.filter((n) => n.opType === 'MatMulNBits');
        if (weights === 'int8') {
          expect(nbits).toEqual([]);
          expect(dequantized.some((w) => /norm1\.linear/.test(w))).toBe(true);
          expect(dequantized.some((w) => /local_facial_extractor/.test(w))).toBe(true);
        } else {
          expect(dequantized.length).toBeGreaterThan(0);
          for (const w of dequantized) expect(w).toMatch(/local_facial_extractor|perceiver_cross_attention/);
          expect(new Set(nbits.map((n) => (n.attributes.bits as { value: number }).value))).toEqual(new Set([4]));
        }
      }
    }
    // on this tiny config small float tensors (norms, biases, embeddings) weigh relatively more than on preview-s
    expect(bytes.int8!).toBeLessThan(0.65 * bytes.float32!);
    expect(bytes.int4!).toBeLessThan(bytes.int8!);
  });

  it('an unknown precision is refused, naming the option, before any weight is read (it ran float32 silently)', async () => {
    const bad = 'fp16' as WeightPrecision;
    const message = /weights must be one of float32, float16, int8, int4; got "fp16"/;
    expect(() => computeDtypeFor(bad, undefined)).toThrow(message);
    expect(() => quantizationFor(bad, 'cpu')).toThrow(message);
    await expect(ConsisIDTransformer3DModel.fromPretrained(fixtureDir('tiny-base'), { weights: bad })).rejects.toThrow(
      message,
    );
    // the checkpoint is not read first: a missing folder still reports the option
    await expect(
      ConsisIDTransformer3DModel.fromPretrained('/nonexistent/checkpoint', { weights: bad, device: 'cpu' }),
    ).rejects.toThrow(message);
    await expect(
      ConsisIDTransformer3DModel.fromPretrained('/nonexistent/checkpoint', {
        weights: 'int8',
        dtype: 'float16',
        device: 'cpu',
      }),
    ).rejects.toThrow(/weights int8 multiply float32 activations/);
  });

  it('a model built from a checkpoint checks its precision and dtype together, as fromPretrained does', async () => {
    const checkpoint = await loadCheckpoint(localSource(fixtureDir('tiny-base')));
    const runtime = { backend: nodeBackend(), device: 'cpu' as const };
    expect(() => BaseModel.fromCheckpoint(checkpoint, { ...runtime, dtype: 'float16', weights: 'int4' })).toThrow(
      /weights int4 multiply float32 activations/,
    );
    expect(() => BaseModel.fromCheckpoint(checkpoint, { ...runtime, dtype: 'float32', weights: 'float16' })).toThrow(
      /weights float16 run in float16/,
    );
    expect(() =>
      BaseModel.fromCheckpoint(checkpoint, { ...runtime, dtype: 'float32', weights: 'int16' as WeightPrecision }),
    ).toThrow(/weights must be one of/);
  });

  it('a model computing in float16 says its weights are float16 (dtype float16 alone is the float16 precision)', async () => {
    expect((await open('tiny-base', 'float16')).weightPrecision).toBe('float16');
    const m = await ConsisIDTransformer3DModel.fromPretrained(fixtureDir('tiny-base'), {
      device: 'cpu',
      dtype: 'float16',
    });
    opened.push(m);
    expect(m.dtype).toBe('float16');
    expect(m.weightPrecision).toBe('float16');
  });

  it('float16 on a WebGPU adapter without shader-f16 is refused naming the option; with a fallback device the caller is told, and it runs there', async () => {
    const f = loadFixture('tiny-base');
    const checkpoint = await loadCheckpoint(localSource(fixtureDir('tiny-base')));
    // Node has no navigator.gpu: no adapter, so no shader-f16; wasm through the Node backend (it reads the files)
    const node = nodeBackend();
    const web = webBackend();
    const backend: InferenceBackend = {
      devices: ['wasm', 'webgpu'],
      createSession: (m, o) => (o.device === 'webgpu' ? web.createSession(m, o) : node.createSession(m, o)),
    };
    const refusal =
      /weights float16 need the WebGPU adapter's shader-f16, which this one lacks: use device "wasm", or weights float32, int8 or int4 on WebGPU/;
    const strict = BaseModel.fromCheckpoint(checkpoint, {
      backend,
      device: 'webgpu',
      dtype: 'float16',
      weights: 'float16',
    });
    await expect(strict.forward(f.args)).rejects.toThrow(refusal);
    const told: string[] = [];
    const m = BaseModel.fromCheckpoint(checkpoint, {
      backend,
      device: 'webgpu',
      fallbackDevice: 'wasm',
      dtype: 'float16',
      weights: 'float16',
      onFallback: (e) => told.push(`${e.from} -> ${e.to}: ${e.reason}`),
    });
    opened.push(m);
    const err = relativeError((await m.forward(f.args)).sample.data as Float32Array, f.expected);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^webgpu -> wasm: /);
    expect(told[0]).toMatch(refusal);
    expect(m.device).toBe('wasm');
    expect(err).toBeLessThanOrEqual(PRECISION_TOLERANCE.float16);
    expect(err).toBeGreaterThan(1e-5);
  });

  it('float16 weights are float16 compute; quantized weights multiply float32 activations', () => {
    expect(computeDtypeFor('float16', undefined)).toBe('float16');
    expect(computeDtypeFor('float32', 'float16')).toBe('float16');
    expect(computeDtypeFor('int4', undefined)).toBe('float32');
    expect(() => computeDtypeFor('float16', 'float32')).toThrow(/weights float16 run in float16/);
    expect(() => computeDtypeFor('int8', 'float16')).toThrow(/multiply float32 activations/);
  });
});
