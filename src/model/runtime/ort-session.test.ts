import { describe, expect, it } from 'vitest';
import { buildSamplerStepGraph, SAMPLER_STEP as N } from '../graph/sampler-step.ts';
import { nodeBackend } from './node.ts';
import { hostTensor } from './ort-session.ts';

const dims = [1, 1, 2, 1, 2];
const scalar = (v: number) => ({ data: Float32Array.of(v), dims: [1] });

describe('device tensors', () => {
  it("feed a session's outputs back in without the host, as run() would with the same data", async () => {
    const session = await nodeBackend().createSession(
      {
        model: buildSamplerStepGraph({ latents: dims, guidance: false, modelInputChannels: 2 }),
        externalData: new Map(),
      },
      { device: 'cpu', deviceOutputs: [N.nextLatents] },
    );
    try {
      const x = await session.upload({ data: Float32Array.of(1, 2, 3, 4), dims });
      const coef = { [N.sampleScale]: scalar(2), [N.outputScale]: scalar(1) };
      const once = await session.runOnDevice({ [N.latents]: x, [N.output]: x, ...coef });
      const next = once[N.nextLatents]!;
      expect(next.dims).toEqual(dims);
      const twice = await session.runOnDevice({ [N.latents]: next, [N.output]: x, ...coef });
      const host = await session.run({
        [N.latents]: { data: await next.download(), dims },
        [N.output]: { data: Float32Array.of(1, 2, 3, 4), dims },
        ...coef,
      });
      expect(await twice[N.nextLatents]!.download()).toEqual(Float32Array.of(7, 14, 21, 28));
      expect(host[N.nextLatents]!.data).toEqual(Float32Array.of(7, 14, 21, 28));

      next.dispose();
      next.dispose();
      expect(next.disposed).toBe(true);
      expect(() => next.download()).toThrow(/disposed device tensor \(1 x 1 x 2 x 1 x 2\) cannot be downloaded/);
      await expect(session.runOnDevice({ [N.latents]: next, [N.output]: x, ...coef })).rejects.toThrow(
        `cannot be fed to "${N.latents}"`,
      );
    } finally {
      await session.release();
    }
  });

  it('on the host, download gives a copy the caller may keep or transfer', async () => {
    const data = Float32Array.of(1, 2);
    const t = hostTensor({ data, dims: [2] });
    const copy = await t.download();
    copy[0] = 9;
    expect(await t.download()).toEqual(Float32Array.of(1, 2));
    expect(t.location).toBe('cpu');
  });
});

describe('nodeBackend overrides', () => {
  const model = {
    model: buildSamplerStepGraph({ latents: dims, guidance: false, modelInputChannels: 2 }),
    externalData: new Map(),
  };
  it("reach onnxruntime over the backend's own options: a bad one fails the session, the defaults make it", async () => {
    const made = await nodeBackend().createSession(model, { device: 'cpu' });
    await made.release();
    await expect(
      nodeBackend({ graphOptimizationLevel: 'no-such-level' }).createSession(model, { device: 'cpu' }),
    ).rejects.toThrow(/no-such-level/);
  });
});
