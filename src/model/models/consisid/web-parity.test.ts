import { afterAll, describe, expect, it } from 'vitest';
import { ConsisIDTransformer3DModel } from '../../node.ts';
import type { ConsisIDTransformer3DModel as Model } from './consisid-model.ts';
import { FIXTURE_CASES, fixtureDir, loadFixture, relativeError } from '../../test-support/fixtures.ts';
import { prepareForward } from './forward-inputs.ts';
import { encodeModel } from '../../onnx/onnx-proto.ts';

const opened: Model[] = [];
afterAll(async () => {
  for (const m of opened) await m.release();
});

describe('onnxruntime-web WASM (in Node) runs the same graph', () => {
  for (const name of FIXTURE_CASES) {
    it(`${name}: same graph bytes, same result as onnxruntime-node, within the tolerance`, async () => {
      const f = loadFixture(name);
      const cpu = await ConsisIDTransformer3DModel.fromPretrained(fixtureDir(name), { device: 'cpu' });
      const wasm = await ConsisIDTransformer3DModel.fromPretrained(fixtureDir(name), { device: 'wasm' });
      opened.push(cpu, wasm);
      const shape = prepareForward(cpu.config, f.args).shape;
      const a = encodeModel(cpu.buildGraph(shape).model);
      const b = encodeModel(wasm.buildGraph(shape).model);
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
      const [outCpu, outWasm] = [await cpu.forward(f.args), await wasm.forward(f.args)];
      expect(relativeError(outWasm.sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(
        f.meta.tolerance.max_abs_error_relative_to_max_abs_expected,
      );
      expect(relativeError(outWasm.sample.data as Float32Array, outCpu.sample.data as Float32Array)).toBeLessThan(1e-5);
    });
  }
});
