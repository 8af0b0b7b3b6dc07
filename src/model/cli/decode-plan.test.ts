import { describe, expect, it } from 'vitest';
import { parseVaeConfig } from '../models/vae/config.ts';
import { planVaeDecode } from '../models/vae/plan.ts';
import { RELEASED_VAE_CONFIG } from '../models/vae/random-vae.ts';
import { memoryBudget, planDecodeRun } from './decode-plan.ts';
import type { Flags } from './flags.ts';

const flags = (memory?: string): Flags => ({
  get: (n) => (n === 'memory' ? memory : undefined),
  need: () => '',
  has: () => false,
});
const released = parseVaeConfig(RELEASED_VAE_CONFIG);
const preview = [1, 13, 16, 30, 44];

describe('consisid decode: the memory it may take', () => {
  it('--memory in GB; without it the free memory', () => {
    expect(memoryBudget(flags('16'))).toEqual({ bytes: 16e9, from: '--memory' });
    expect(memoryBudget(flags('0.5')).bytes).toBe(0.5e9);
    expect(memoryBudget(flags(), () => 1234)).toEqual({ bytes: 1234, from: 'free memory' });
  });

  it.each(['0', '-2', 'lots', '', '1e999', 'NaN'])('--memory %j is an error naming the flag', (v) => {
    expect(() => memoryBudget(flags(v))).toThrow(/--memory must be a positive number of gigabytes/);
  });
});

describe('consisid decode: the plan within the memory', () => {
  it("untiled when the process's planned peak fits, and says so", () => {
    const whole = planVaeDecode(released, preview).cpuProcessBytes;
    const run = planDecodeRun(released, preview, 'cpu', { bytes: whole, from: '--memory' }, false);
    expect(run.decode.tile).toBe(false);
    expect(run.line).toContain(`plan: untiled, process peak RSS about ${(whole / 1e9).toFixed(2)} GB`);
  });

  it("a 16 GB laptop's free memory tiles the preview; every tile's planned peak fits it", () => {
    const memory = { bytes: 12e9, from: 'free memory' };
    expect(planVaeDecode(released, preview).cpuProcessBytes).toBeGreaterThan(memory.bytes);
    const run = planDecodeRun(released, preview, 'cpu', memory, false);
    expect(run.decode.tile).toBe(true);
    expect(run.maxSessions).toBe(1);
    expect(run.line).toMatch(
      /^plan: \d+ tiles of up to \d+ x \d+ latents, process peak RSS about [\d.]+ GB of 12\.00 GB/,
    );
    expect(run.line).not.toContain('does not fit');
    const [th, tw] = /up to (\d+) x (\d+) latents/.exec(run.line)!.slice(1).map(Number);
    expect(th! <= 30 && tw! <= 44, run.line).toBe(true);
    const tile = planVaeDecode(released, preview, { tile: true, tileSize: run.decode.tileSize });
    expect(tile.cpuProcessBytes).toBeLessThanOrEqual(memory.bytes);
  });

  it('too little memory for any tile: the smallest tiles, and the plan says it does not fit', () => {
    const run = planDecodeRun(released, preview, 'cpu', { bytes: 1e9, from: '--memory' }, false);
    expect(run.decode.tile).toBe(true);
    expect(run.line).toMatch(/does not fit: cpu: weights and one batch .* exceed the budget's/);
  });
});
