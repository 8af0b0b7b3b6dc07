// The denoising loop with its latents on the device, on the CPU (onnxruntime-web's WASM build in
// Node): the step graph against the JS scheduler, and a whole run against the host loop.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { relativeError } from '../io/tensor.ts';
import { gaussian } from './inputs.ts';
import { runPreview } from './run-preview.ts';
import type { PreviewRequest, StepFrame, Timings } from './run-types.ts';
import { createDdim, DDIM_DEFAULTS, guide, type DdimConfig } from './scheduler.ts';
import { ConsisIDTransformer3DModel } from '../models/consisid/consisid-model.ts';
import { browserEnvironment } from '../runtime/environment.ts';
import { buildSamplerStepGraph, SAMPLER_STEP as N } from '../graph/sampler-step.ts';
import { consisidTinyFiles } from '../models/consisid/demo-checkpoints.ts';
import { memorySource } from '../io/memory-source.ts';
import type { BackendSession, DeviceTensor, InferenceBackend } from '../runtime/types.ts';

const SHAPE = [1, 2, 4, 3, 5];
const numel = SHAPE.reduce((a, b) => a * b, 1);
const scalar = (v: number) => ({ data: Float32Array.of(v), dims: [1] });

let backend: Promise<InferenceBackend> | undefined;
const sessions = new Map<string, Promise<BackendSession>>();
/** one session per graph shape: every step and schedule feeds its coefficients */
function stepSession(guidance: boolean, modelInputChannels = SHAPE[2]!): Promise<BackendSession> {
  const key = `${guidance} ${modelInputChannels}`;
  let s = sessions.get(key);
  if (!s) {
    backend ??= browserEnvironment.backend();
    s = backend.then((b) =>
      b.createSession(
        { model: buildSamplerStepGraph({ latents: SHAPE, guidance, modelInputChannels }), externalData: new Map() },
        { device: 'wasm' },
      ),
    );
    sessions.set(key, s);
  }
  return s;
}

afterAll(async () => {
  for (const s of sessions.values()) await (await s).release();
});

describe('the DDIM step graph', () => {
  it('matches the JS scheduler (guidance, then step) within 1e-6 for any schedule, step and prediction', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 60 }),
        fc.nat(),
        fc.option(fc.double({ min: 1.5, max: 12, noNaN: true }), { nil: null }),
        fc.constantFrom<DdimConfig['prediction']>('v_prediction', 'epsilon'),
        fc.integer({ min: 0, max: 1e6 }),
        async (steps, pick, guidance, prediction, seed) => {
          const ddim = createDdim(steps, { ...DDIM_DEFAULTS, prediction });
          const index = pick % steps;
          const x = gaussian(seed, 'x', numel);
          const cond = gaussian(seed, 'cond', numel);
          const uncond = gaussian(seed, 'uncond', numel);
          const expected = ddim.step(guidance === null ? cond : guide(cond, uncond, guidance), index, x);
          const { sample, output } = ddim.coefficients(index);
          const out = await (
            await stepSession(guidance !== null)
          ).run({
            [N.latents]: { data: x, dims: SHAPE },
            [N.output]: { data: cond, dims: SHAPE },
            ...(guidance !== null
              ? { [N.uncond]: { data: uncond, dims: SHAPE }, [N.guidanceScale]: scalar(guidance) }
              : {}),
            [N.sampleScale]: scalar(sample),
            [N.outputScale]: scalar(output),
          });
          expect(relativeError(out[N.nextLatents]!.data, expected)).toBeLessThanOrEqual(1e-6);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("appends the conditioning channels to the next model input, or cuts it to the model's channels", async () => {
    const x = gaussian(1, 'x', numel);
    const o = gaussian(1, 'o', numel);
    const feeds = { [N.latents]: { data: x, dims: SHAPE }, [N.output]: { data: o, dims: SHAPE } };
    const coef = { [N.sampleScale]: scalar(0.5), [N.outputScale]: scalar(-0.25) };
    const px = SHAPE[3]! * SHAPE[4]!;
    const cond = gaussian(1, 'c', 2 * 2 * px);
    const wide = await (
      await stepSession(false, 6)
    ).run({
      ...feeds,
      ...coef,
      [N.conditioning]: { data: cond, dims: [1, 2, 2, 3, 5] },
    });
    const narrow = await (await stepSession(false, 3)).run({ ...feeds, ...coef });
    const next = wide[N.nextLatents]!.data;
    for (let f = 0; f < 2; f++) {
      const lat = next.subarray(f * 4 * px, (f + 1) * 4 * px);
      expect(wide[N.nextModelInput]!.data.subarray(f * 6 * px, f * 6 * px + 4 * px)).toEqual(lat);
      expect(wide[N.nextModelInput]!.data.subarray(f * 6 * px + 4 * px, (f + 1) * 6 * px)).toEqual(
        cond.subarray(f * 2 * px, (f + 1) * 2 * px),
      );
      expect(narrow[N.nextModelInput]!.data.subarray(f * 3 * px, (f + 1) * 3 * px)).toEqual(lat.subarray(0, 3 * px));
    }
    expect(narrow[N.nextModelInput]!.dims).toEqual([1, 2, 3, 3, 5]);
  });
});

describe('the preview loop with latents on the device', () => {
  it('gives the host loop its output within 1e-6, reads back only the steps shown, and frees what it held', async () => {
    const files = consisidTinyFiles().map(({ path, bytes }) => ({ path, bytes }));
    const model = await ConsisIDTransformer3DModel.fromPretrained('consisid-community/consisid-tiny', {
      source: memorySource(files, 'transformer'),
      environment: browserEnvironment,
      device: 'wasm',
    });
    try {
      const req: PreviewRequest = {
        spec: { frames: 2, height: 4, width: 4, textLength: 3, seed: 5, timestep: 500, identity: false },
        mode: 'denoise',
        steps: 3,
        guidance: 2.5,
        uploads: {},
      };
      const timings = (): Timings => ({ loadMs: 0, graphBuildMs: [], sessionCreateMs: [], forwardMs: [], rotaryMs: 0 });
      const forward = async (args: Parameters<typeof model.forward>[0]) =>
        (await model.forward({ ...args, return_dict: true })).sample;
      const hostFrames: StepFrame[] = [];
      const host = await runPreview(model.config, req, timings(), {
        forward,
        stage: () => undefined,
        step: (f) => hostFrames.push(f),
      });

      const held: DeviceTensor[] = [];
      const deviceFrames: StepFrame[] = [];
      const t = timings();
      const device = await runPreview(
        model.config,
        req,
        t,
        {
          forward,
          async onDevice(args) {
            const fwd = await model.deviceForward(args, {
              onStage: (e) => void (e.state === 'end' && e.stage === 'forward' && t.forwardMs.push(e.ms)),
            });
            return {
              ...fwd,
              run: async (r) => held[held.push(await fwd.run(r)) - 1]!,
              upload: async (x) => held[held.push(await fwd.upload(x)) - 1]!,
            };
          },
          stage: () => undefined,
          step: (f) => deviceFrames.push(f),
        },
        // the clock stands still: every step after the first comes within the frame interval
        () => 0,
      );
      expect(relativeError(device.sample, host.sample)).toBeLessThanOrEqual(1e-6);
      const bytes = host.sample.byteLength;
      // host: both passes of every step read back; device: the first step shown, and the last (the result)
      expect(host.readback).toEqual({ count: 6, bytes: 6 * bytes });
      expect(device.readback).toEqual({ count: 2, bytes: 2 * bytes });
      expect(deviceFrames.map((f) => [f.index, f.latents !== undefined])).toEqual([
        [0, true],
        [1, false],
        [2, true],
      ]);
      expect(relativeError(deviceFrames[0]!.latents!, hostFrames[0]!.latents!)).toBeLessThanOrEqual(1e-6);
      expect(deviceFrames[2]!.latents).toEqual(device.sample);
      expect(t.forwardMs).toHaveLength(6);
      expect(held.length).toBeGreaterThan(6);
      expect(held.filter((h) => !h.disposed)).toEqual([]);
    } finally {
      await model.release();
    }
  });
});
