// float16 and int8 hold float32's output within 3e-2 on every kind of generated checkpoint
// (docs/model-precision-family.md): on onnxruntime-node CPU, and int8 on onnxruntime-web WASM (WebGPU:
// e2e/precision-family.spec.ts, the page in Chromium).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkpointFromTensors } from './checkpoint-writer.ts';
import { randomInputs } from '../../cli/generate-command.ts';
import { parseShapeSpec } from '../../cli/shape-spec.ts';
import { parseConfig } from '../../graph/config.ts';
import { ConsisIDTransformer3DModel } from './consisid-model.ts';
import { CONSISID_PREVIEW_S_CONFIG } from './demo-checkpoints.ts';
import { argsFromNamedTensors } from './named-inputs.ts';
import type { WeightPrecision } from '../../plan/precision.ts';
import { WEIGHT_FAMILIES, checkWeightFamily, randomWeights } from './random-weights.ts';
import { nodeBackend } from '../../runtime/node.ts';
import type { Device } from '../../runtime/types.ts';
import { relativeError } from '../../io/tensor.ts';

const FAMILY_BOUND = 3e-2;
// the demo preview-s: identity module and rotary positions, so every quantized role is in the graph
const config = parseConfig(CONSISID_PREVIEW_S_CONFIG);
const args = argsFromNamedTensors(
  new Map(Object.entries(randomInputs(config, parseShapeSpec('frames=2,height=8,width=8,text=8,vit=10', config), 7))),
);

async function sample(
  checkpoint: Awaited<ReturnType<typeof checkpointFromTensors>>,
  weights: WeightPrecision,
  device: Device,
): Promise<Float32Array> {
  const dtype = weights === 'float16' ? 'float16' : 'float32';
  const m = ConsisIDTransformer3DModel.fromCheckpoint(checkpoint, { backend: nodeBackend(), device, dtype, weights });
  try {
    return (await m.forward(args)).sample.data as Float32Array;
  } finally {
    await m.release();
  }
}

describe('every precision on every kind of checkpoint', () => {
  for (const family of WEIGHT_FAMILIES) {
    it(`${family} weights: float16 and int8 within ${FAMILY_BOUND} of float32 on cpu, int8 on wasm too`, async () => {
      const checkpoint = await checkpointFromTensors(config, randomWeights(config, 42, 'float32', family));
      const reference = await sample(checkpoint, 'float32', 'cpu');
      for (const [weights, device] of [
        ['float16', 'cpu'],
        ['int8', 'cpu'],
        ['int8', 'wasm'],
      ] as const) {
        const err = relativeError(await sample(checkpoint, weights, device), reference);
        expect(err, `${weights} on ${device}`).toBeLessThanOrEqual(FAMILY_BOUND);
        expect(err, `${weights} on ${device} ran float32`).toBeGreaterThan(1e-5);
      }
    });
  }

  it('the families are what they say: heavy adds noise of std 0.05 to every weight, outliers make 4 channels of the block norms 32x', () => {
    const [uniform, heavy, outliers] = WEIGHT_FAMILIES.map((f) => randomWeights(config, 42, 'float32', f));
    const ff = 'transformer_blocks.0.ff.net.0.proj.weight';
    const [u, h] = [uniform!, heavy!].map((w) => w.get(ff)!.data as Float32Array);
    const noiseStd = Math.sqrt(h!.reduce((s, v, i) => s + (v - u![i]!) ** 2, 0) / h!.length);
    expect(noiseStd).toBeGreaterThan(0.048);
    expect(noiseStd).toBeLessThan(0.052);
    const norm = 'transformer_blocks.1.norm2.norm.weight';
    const gain = (outliers!.get(norm)!.data as Float32Array).map((v, i) => v / (uniform!.get(norm)!.data[i] as number));
    expect(gain.filter((g) => g === 32)).toHaveLength(4);
    expect(gain.filter((g) => g === 1)).toHaveLength(gain.length - 4);
    // everything else is the uniform checkpoint as it was
    expect(outliers!.get(ff)!.data).toEqual(uniform!.get(ff)!.data);
  });

  it('a family named by an option is itself; any other name is refused naming the option and the choices', () => {
    for (const family of WEIGHT_FAMILIES) expect(checkWeightFamily(family, 'GPU_BENCH_FAMILY')).toBe(family);
    fc.assert(
      fc.property(
        fc.string().filter((s) => !(WEIGHT_FAMILIES as readonly string[]).includes(s)),
        (name) => {
          expect(() => checkWeightFamily(name, 'GPU_BENCH_FAMILY')).toThrow(
            `GPU_BENCH_FAMILY must be one of uniform, heavy, outliers; got ${JSON.stringify(name)}`,
          );
        },
      ),
    );
  });
});
