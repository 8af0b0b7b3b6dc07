import { describe, expect, it, afterAll } from 'vitest';
import { ConsisIDTransformer3DModel } from '../../node.ts';
import type { ConsisIDTransformer3DModel as Model } from './consisid-model.ts';
import { FIXTURE_CASES, fixtureDir, loadFixture, relativeError } from '../../test-support/fixtures.ts';
import { ForwardInputError, prepareForward } from './forward-inputs.ts';
import type { HostTensor } from '../../io/tensor.ts';
import type { StageEvent } from '../../runtime/events.ts';
import { ConsisIDTransformer3DModel as BaseModel } from './consisid-model.ts';
import { loadCheckpoint } from './load-checkpoint.ts';
import { localSource } from '../../io/local-source.ts';
import { HubFileError } from '../../io/hub-files.ts';
import { nodeBackend } from '../../runtime/node.ts';
import type { InferenceBackend } from '../../runtime/types.ts';

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

describe('stage timings and the fallback device', () => {
  const describeEvent = (e: StageEvent) => `${e.stage}:${e.state}:${e.device}`;

  it('reports weights, graph, session and forward stages with their times; a second forward only runs', async () => {
    const events: StageEvent[] = [];
    const f = loadFixture('tiny-base');
    const m = await ConsisIDTransformer3DModel.fromPretrained(fixtureDir('tiny-base'), {
      device: 'cpu',
      onStage: (e) => events.push(e),
    });
    models.set('tiny-base-events', m);
    expect(events.map(describeEvent)).toEqual(['weights:start:cpu', 'weights:end:cpu']);
    const perCall: StageEvent[] = [];
    await m.forward(f.args, { onStage: (e) => perCall.push(e) });
    expect(perCall.map(describeEvent)).toEqual([
      'graph:start:cpu',
      'graph:end:cpu',
      'session:start:cpu',
      'session:end:cpu',
      'forward:start:cpu',
      'forward:end:cpu',
    ]);
    expect(events.slice(2)).toEqual(perCall);
    for (const e of perCall) if (e.state === 'end') expect(e.ms).toBeGreaterThanOrEqual(0);
    perCall.length = 0;
    await m.forward(f.args, { onStage: (e) => perCall.push(e) });
    expect(perCall.map(describeEvent)).toEqual(['forward:start:cpu', 'forward:end:cpu']);
  });

  it('creates the session on the fallback device when the first one fails, and records it as the device', async () => {
    const cpu = nodeBackend();
    const flaky: InferenceBackend = {
      devices: ['webgpu', 'cpu'],
      createSession: (model, opts) =>
        opts.device === 'webgpu' ? Promise.reject(new Error('no adapter')) : cpu.createSession(model, opts),
    };
    const f = loadFixture('tiny-base');
    const checkpoint = await loadCheckpoint(localSource(fixtureDir('tiny-base')));
    const log: string[] = [];
    const m = BaseModel.fromCheckpoint(checkpoint, {
      backend: flaky,
      device: 'webgpu',
      fallbackDevice: 'cpu',
      dtype: 'float32',
      onStage: (e) => log.push(describeEvent(e)),
      onFallback: (e) => log.push(`fallback ${e.from} -> ${e.to}: ${e.reason}`),
    });
    models.set('tiny-base-fallback', m);
    expect(m.device).toBe('webgpu');
    const info = await m.session(f.args);
    expect(info.device).toBe('cpu');
    expect(m.device).toBe('cpu');
    expect(log).toEqual([
      'graph:start:webgpu',
      'graph:end:webgpu',
      'session:start:webgpu',
      'fallback webgpu -> cpu: no adapter',
      'session:start:cpu',
      'session:end:cpu',
    ]);
    const out = await m.forward(f.args);
    expect(relativeError(out.sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(1e-4);
    const strict = BaseModel.fromCheckpoint(checkpoint, { backend: flaky, device: 'webgpu', dtype: 'float32' });
    await expect(strict.forward(f.args)).rejects.toThrow(/no adapter/);
    expect(strict.device).toBe('webgpu');
  });

  it("a weight download the hub fails is not a device failure: no fallback, the hub's error", async () => {
    const cpu = nodeBackend();
    let cpuSessions = 0;
    const hubFails: InferenceBackend = {
      devices: ['webgpu', 'cpu'],
      createSession: (model, opts) => {
        if (opts.device === 'webgpu')
          return Promise.reject(
            new HubFileError('diffusion_pytorch_model.safetensors', 'http://hub/w', 503, 'HTTP 503'),
          );
        cpuSessions++;
        return cpu.createSession(model, opts);
      },
    };
    const f = loadFixture('tiny-base');
    const checkpoint = await loadCheckpoint(localSource(fixtureDir('tiny-base')));
    const fallbacks: string[] = [];
    const m = BaseModel.fromCheckpoint(checkpoint, {
      backend: hubFails,
      device: 'webgpu',
      fallbackDevice: 'cpu',
      dtype: 'float32',
      onFallback: (e) => fallbacks.push(e.to),
    });
    await expect(m.forward(f.args)).rejects.toThrow(/HTTP 503/);
    expect(fallbacks).toEqual([]);
    expect(cpuSessions).toBe(0);
    expect(m.device).toBe('webgpu');
  });

  it('hands threads and prepack to the backend as given, and leaves the default prepacking to the backend when unset', async () => {
    const cpu = nodeBackend();
    const seen: unknown[] = [];
    const recording: InferenceBackend = {
      devices: ['cpu'],
      createSession(model, opts) {
        seen.push(opts);
        return cpu.createSession(model, opts);
      },
    };
    const f = loadFixture('tiny-base');
    const checkpoint = await loadCheckpoint(localSource(fixtureDir('tiny-base')));
    for (const prepack of [false, true, undefined]) {
      const m = BaseModel.fromCheckpoint(checkpoint, {
        backend: recording,
        device: 'cpu',
        dtype: 'float32',
        threads: 1,
        ...(prepack === undefined ? {} : { prepack }),
      });
      try {
        expect(relativeError((await m.forward(f.args)).sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(
          1e-4,
        );
      } finally {
        await m.release();
      }
    }
    expect(seen).toEqual([
      { device: 'cpu', threads: 1, prepack: false, float16: false },
      { device: 'cpu', threads: 1, prepack: true, float16: false },
      { device: 'cpu', threads: 1, float16: false },
    ]);
  });

  it('keeps at most maxSessions sessions, releasing the oldest', async () => {
    const cpu = nodeBackend();
    let live = 0;
    const counting: InferenceBackend = {
      devices: ['cpu'],
      async createSession(model, opts) {
        const s = await cpu.createSession(model, opts);
        live++;
        return {
          ...s,
          release: async () => {
            live--;
            await s.release();
          },
        };
      },
    };
    const f = loadFixture('tiny-base');
    const m = BaseModel.fromCheckpoint(await loadCheckpoint(localSource(fixtureDir('tiny-base'))), {
      backend: counting,
      device: 'cpu',
      dtype: 'float32',
      maxSessions: 1,
    });
    await m.forward(f.args);
    const hs = f.args.hidden_states;
    const [b, fr, c, h, w] = hs.shape as [number, number, number, number, number];
    await m.forward({
      ...f.args,
      hidden_states: {
        dtype: 'float32',
        shape: [b, fr, c, h, w + 2],
        data: new Float32Array(b * fr * c * h * (w + 2)),
      },
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(live).toBe(1);
    await m.release();
    expect(live).toBe(0);
  });
});
