import { afterAll, describe, expect, it } from 'vitest';
import { ConsisIDTransformer3DModel } from '../../node.ts';
import type { ConsisIDTransformer3DModel as Model } from './consisid-model.ts';
import { fixtureDir, loadFixture, relativeError } from '../../test-support/fixtures.ts';
import type { StageEvent } from '../../runtime/events.ts';
import { ConsisIDTransformer3DModel as BaseModel } from './consisid-model.ts';
import { loadCheckpoint } from './load-checkpoint.ts';
import { localSource } from '../../io/local-source.ts';
import { HubFileError } from '../../io/hub-files.ts';
import { nodeBackend } from '../../runtime/node.ts';
import type { InferenceBackend } from '../../runtime/types.ts';

/** models kept open by the tests, released at the end */
const models = new Map<string, Model>();
afterAll(async () => {
  for (const m of models.values()) await m.release();
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
