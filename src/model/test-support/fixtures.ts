// Reads the golden fixtures in fixtures/consisid/ (tests only).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { z } from 'zod';
import { entryToFloat32, entryToHost, parseSafetensors } from '../io/safetensors/read.ts';
import { argsFromNamedTensors } from '../models/consisid/named-inputs.ts';
import type { ForwardInputs } from '../models/consisid/forward-inputs.ts';
import type { HostTensor } from '../io/tensor.ts';
import type { WeightPrecision } from '../plan/precision.ts';

export const FIXTURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/consisid');
export const FIXTURE_CASES = ['tiny-base', 'tiny-face', 'tiny-rope'] as const;

const caseSchema = z.object({
  tolerance: z.object({ max_abs_error_relative_to_max_abs_expected: z.number() }),
  image_rotary_emb_from: z
    .object({
      height_px: z.number(),
      width_px: z.number(),
      num_latent_frames: z.number(),
      vae_scale_factor_spatial: z.number(),
    })
    .optional(),
});

export const fixtureDir = (name: string): string => path.join(FIXTURES_DIR, name);

export function readNamedTensors(file: string): Map<string, HostTensor> {
  const st = parseSafetensors(new Uint8Array(readFileSync(file)), file);
  return new Map([...st.tensors].map(([k, e]) => [k, entryToHost(e, file)]));
}

export function loadFixture(name: string): {
  args: ForwardInputs;
  expected: Float32Array;
  expectedShape: number[];
  meta: z.infer<typeof caseSchema>;
  inputs: Map<string, HostTensor>;
} {
  const dir = fixtureDir(name);
  const inputs = readNamedTensors(path.join(dir, 'inputs.safetensors'));
  const exp = parseSafetensors(new Uint8Array(readFileSync(path.join(dir, 'expected.safetensors'))), 'expected');
  const sample = exp.tensors.get('sample')!;
  return {
    args: argsFromNamedTensors(inputs),
    expected: entryToFloat32(sample, 'expected'),
    expectedShape: sample.shape,
    meta: caseSchema.parse(JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8'))),
    inputs,
  };
}

export { relativeError } from '../io/tensor.ts';

/**
 * max|out - expected| / max|expected| allowed per weight precision (expected: the float64
 * reference; float32 has each case's own tolerance). Measured on the three fixtures, cpu, wasm and
 * WebGPU (SwiftShader) alike: float16 6.6-8.5e-4, int8 0.97-1.34e-2 (its 4-bit modulation blocks span
 * most of these tiny widths; 7.1e-3 against float32 on preview-s), int4 1.4-2.0e-2; the tolerances are
 * about twice that.
 */
export const PRECISION_TOLERANCE: Record<Exclude<WeightPrecision, 'float32'>, number> = {
  float16: 2e-3,
  int8: 2.5e-2,
  int4: 4e-2,
};
