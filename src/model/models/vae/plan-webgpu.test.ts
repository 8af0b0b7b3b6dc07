// The plan's WebGPU count for one batch (weights + the activation peak of onnxruntime's WebGPU EP on
// its lazyRelease cache) against what the EP made in Chromium: the most bytes of GPU buffers live at
// once during one batch of the released decoder, counted at createBuffer/destroy by
// `npm run bench -- vae-page` (docs/vae.md, "In Chromium").
import { describe, expect, it } from 'vitest';
import { parseVaeConfig } from './config.ts';
import { planVaeDecode } from './plan.ts';

const released = parseVaeConfig({ block_out_channels: [128, 256, 256, 512], scaling_factor: 0.7 });
const MiB = 2 ** 20;

/** latents (frames x height x width, one untiled batch) -> measured peak of live GPU buffers */
const MEASURED: [number[], number][] = [
  [[1, 6, 5], 538.8 * MiB],
  [[3, 6, 5], 728.5 * MiB],
  [[1, 12, 10], 743.5 * MiB],
];

describe('the VAE plan on WebGPU, against the GPU buffers measured in Chromium', () => {
  it.each(MEASURED)('latents %j: plans at least what the EP held, and within 25 % of it', ([f, h, w], measured) => {
    const plan = planVaeDecode(released, [1, f!, 16, h!, w!]);
    const planned = plan.weightBytes + plan.activationPeakBytes.webgpu;
    expect(planned).toBeGreaterThanOrEqual(measured);
    expect(planned).toBeLessThanOrEqual(1.25 * measured);
  });
});
