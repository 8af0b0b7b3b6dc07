import { describe, expect, it } from 'vitest';
import { parseVaeConfig } from './config.ts';
import { decoderParameters } from './decoder-layout.ts';
import { chooseVaeTiling, planVaeDecode } from './plan.ts';

const released = parseVaeConfig({ block_out_channels: [128, 256, 256, 512], scaling_factor: 0.7 });

describe('VAE decode plan', () => {
  it('holds the float32 decoder weights once, whatever their stored dtype', () => {
    const params = [...decoderParameters(released).values()].reduce((s, d) => s + d.reduce((a, b) => a * b, 1), 0);
    const plan = planVaeDecode(released, [1, 3, 16, 4, 6]);
    // plus a few KiB of shape and frame-index constants
    expect(plan.weightBytes).toBeGreaterThanOrEqual(4 * params);
    expect(plan.weightBytes - 4 * params).toBeLessThan(16 * 1024);
    expect(plan.batches.map((b) => [b.signature, b.runs])).toEqual([['first:1x3x4x6', 1]]);
  });

  it('counts one graph per batch shape, with how often it runs', () => {
    const plan = planVaeDecode(released, [1, 13, 16, 4, 6]);
    expect(plan.batches.map((b) => [b.signature, b.runs])).toEqual([
      ['first:1x3x4x6', 1],
      ['next:1x2x4x6', 5],
    ]);
    // activations grow with the pixels of a batch; FLOPs with every run
    const bigger = planVaeDecode(released, [1, 13, 16, 8, 12]);
    expect(bigger.activationPeakBytes.cpu).toBeGreaterThan(3.5 * plan.activationPeakBytes.cpu);
    expect(bigger.flops).toBeGreaterThan(3.5 * plan.flops);
  });

  it('full resolution fits no browser untiled; the plan tiles it, each tile far smaller', () => {
    const whole = planVaeDecode(released, [1, 13, 16, 60, 90]);
    expect(whole.fit.wasm).toBe(false);
    const chosen = chooseVaeTiling(released, [1, 13, 16, 60, 90]);
    expect(chosen.tiled).toBe(true);
    expect(chosen.tiles).toBe(9);
    expect(chosen.activationPeakBytes.cpu).toBeLessThan(whole.activationPeakBytes.cpu / 3);
  });
});
