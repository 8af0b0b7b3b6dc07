import { describe, expect, it } from 'vitest';
import { parseVaeConfig } from './config.ts';
import { planVaeDecode } from './plan.ts';
import { RELEASED_VAE_CONFIG } from './random-vae.ts';

const released = parseVaeConfig(RELEASED_VAE_CONFIG);

/**
 * Peak RSS of one decode process (bench/vae-memory-child.ts: onnxruntime-node CPU, the decoder's
 * session options, 2 threads, generated float32 weights of the released decoder, one session at a
 * time), the most of the runs at each size (docs/vae.md, "CPU memory").
 */
const MEASURED: { latents: [number, number, number]; peakRss: number }[] = [
  { latents: [3, 6, 5], peakRss: 1_715_888_128 },
  { latents: [3, 12, 10], peakRss: 2_489_327_616 },
  { latents: [3, 18, 15], peakRss: 3_823_099_904 },
  { latents: [5, 12, 10], peakRss: 2_817_441_792 },
  { latents: [3, 30, 5], peakRss: 2_758_627_328 },
  { latents: [3, 6, 44], peakRss: 3_521_642_496 },
  { latents: [5, 18, 15], peakRss: 4_501_389_312 },
];

const planned = ([f, h, w]: readonly number[]) => planVaeDecode(released, [1, f!, 16, h!, w!]).cpuProcessBytes;

describe('cpuProcessBytes: the process a CPU decode takes', () => {
  it.each(MEASURED)(
    'covers the peak RSS measured at latents $latents, at most 1.5x over it',
    ({ latents, peakRss }) => {
      const bytes = planned(latents);
      expect(bytes).toBeGreaterThanOrEqual(peakRss);
      expect(bytes).toBeLessThanOrEqual(1.5 * peakRss);
    },
  );

  it("covers the preview's first batch, which passed 15.0 GB of RSS before it ended", () => {
    const first = planVaeDecode(released, [1, 3, 16, 30, 44]);
    expect(first.cpuProcessBytes).toBeGreaterThan(15.0e9);
    // the planned activations and weights alone say far less
    expect(first.weightBytes + first.activationPeakBytes.cpu).toBeLessThan(15.0e9 / 2.5);
  });
});
