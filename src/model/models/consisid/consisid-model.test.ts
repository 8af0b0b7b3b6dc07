import { describe, expect, it, afterAll } from 'vitest';
import { ConsisIDTransformer3DModel } from '../../node.ts';
import type { ConsisIDTransformer3DModel as Model } from './consisid-model.ts';
import { FIXTURE_CASES, fixtureDir, loadFixture, relativeError } from '../../test-support/fixtures.ts';
import { ForwardInputError, prepareForward } from './forward-inputs.ts';
import type { HostTensor } from '../../io/tensor.ts';

const models = new Map<string, Model>();
async function model(name: string): Promise<Model> {
  let m = models.get(name);
  if (!m) {
    m = await ConsisIDTransformer3DModel.fromPretrained(fixtureDir(name), { device: 'cpu' });
    models.set(name, m);
  }
  return m;
}
afterAll(async () => {
  for (const m of models.values()) await m.release();
});

describe('ConsisIDTransformer3DModel forward on onnxruntime-node (cpu)', () => {
  for (const name of FIXTURE_CASES) {
    it(`${name} matches the reference within the case tolerance`, async () => {
      const f = loadFixture(name);
      const m = await model(name);
      const out = await m.forward(f.args);
      expect(out.sample.shape).toEqual(f.expectedShape);
      const err = relativeError(out.sample.data as Float32Array, f.expected);
      expect(err).toBeLessThanOrEqual(f.meta.tolerance.max_abs_error_relative_to_max_abs_expected);
    });
  }

  it('return_dict false returns a one-element tuple with the same sample', async () => {
    const f = loadFixture('tiny-base');
    const m = await model('tiny-base');
    const [sample] = await m.forward({ ...f.args, return_dict: false });
    expect(relativeError(sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(1e-4);
  });

  it('timestep as a plain number broadcasts over the batch', async () => {
    const f = loadFixture('tiny-rope');
    const m = await model('tiny-rope');
    const ts = Number((f.inputs.get('timestep')!.data as BigInt64Array)[0]);
    const out = await m.forward({ ...f.args, timestep: ts });
    expect(relativeError(out.sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(1e-4);
  });

  it('attention_kwargs.scale is accepted without effect; unknown keys are rejected', async () => {
    const f = loadFixture('tiny-base');
    const m = await model('tiny-base');
    const out = await m.forward({ ...f.args, attention_kwargs: { scale: 0.5 } });
    expect(relativeError(out.sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(1e-4);
    await expect(m.forward({ ...f.args, attention_kwargs: { scale: 1, bogus: 1 } })).rejects.toThrow(
      /attention_kwargs: unsupported key\(s\) bogus/,
    );
  });

  it('timestep_cond is summed with the time embedding output', async () => {
    const f = loadFixture('tiny-base');
    const m = await model('tiny-base');
    const zeros: HostTensor = { dtype: 'float32', shape: [2, 24], data: new Float32Array(48) };
    const same = await m.forward({ ...f.args, timestep_cond: zeros });
    expect(relativeError(same.sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(1e-4);
    const ones: HostTensor = { dtype: 'float32', shape: [2, 24], data: new Float32Array(48).fill(1) };
    const shifted = await m.forward({ ...f.args, timestep_cond: ones });
    expect(relativeError(shifted.sample.data as Float32Array, f.expected)).toBeGreaterThan(1e-3);
  });

  it('float16 compute runs on the CPU provider close to the reference', async () => {
    const f = loadFixture('tiny-face');
    const m = await ConsisIDTransformer3DModel.fromPretrained(fixtureDir('tiny-face'), {
      device: 'cpu',
      dtype: 'float16',
    });
    models.set('tiny-face-f16', m);
    const ops = new Set(
      m.buildGraph(prepareForward(m.config, f.args).shape).model.graph.initializers.map((t) => t.type),
    );
    expect(ops).toContain('float16');
    const out = await m.forward(f.args);
    expect(relativeError(out.sample.data as Float32Array, f.expected)).toBeLessThan(5e-3);
  });

  it('refuses a device the backend does not have', async () => {
    await expect(
      ConsisIDTransformer3DModel.fromPretrained(fixtureDir('tiny-base'), { device: 'webgpu' }),
    ).rejects.toThrow(/device "webgpu" is not available here/);
  });

  it('rejects bad inputs before running', async () => {
    const base = loadFixture('tiny-base');
    const face = loadFixture('tiny-face');
    const rope = loadFixture('tiny-rope');
    const mb = await model('tiny-base');
    const mf = await model('tiny-face');
    const hs = base.args.hidden_states;
    await expect(
      mb.forward({
        ...base.args,
        hidden_states: { ...hs, shape: [2, 2, 3, 6, 8], data: new Float32Array(2 * 2 * 3 * 48) },
      }),
    ).rejects.toThrow(/hidden_states must have shape \(\*, \*, 4, \*, \*\)/);
    await expect(
      mb.forward({
        ...base.args,
        hidden_states: { dtype: 'int32', shape: hs.shape, data: new Int32Array(hs.data.length) },
      }),
    ).rejects.toThrow(/floating-point/);
    await expect(
      mb.forward({
        ...base.args,
        hidden_states: { ...hs, shape: [2, 2, 4, 5, 8], data: new Float32Array(2 * 2 * 4 * 40) },
      }),
    ).rejects.toThrow(/multiples of patch_size/);
    await expect(mb.forward({ ...base.args, image_rotary_emb: rope.args.image_rotary_emb! })).rejects.toThrow(
      /no rotary positional embeddings/,
    );
    await expect(mf.forward({ ...face.args, id_cond: null })).rejects.toThrow(
      /id_cond and id_vit_hidden .* are required/,
    );
    await expect(mf.forward({ ...face.args, id_vit_hidden: face.args.id_vit_hidden!.slice(0, 1) })).rejects.toThrow(
      /LFE_num_scale \(2\) tensors/,
    );
    await expect(
      mb.forward({ ...base.args, timestep: { dtype: 'int64', shape: [3], data: new BigInt64Array(3) } }),
    ).rejects.toThrow(ForwardInputError);
    await expect(
      mb.forward({
        ...base.args,
        encoder_hidden_states: { dtype: 'float32', shape: [2, 8, 20], data: new Float32Array(320) },
      }),
    ).rejects.toThrow(/max_text_seq_length/);
  });
});
