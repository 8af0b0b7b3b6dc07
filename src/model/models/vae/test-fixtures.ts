// Reads the VAE golden cases in fixtures/cogvideox-vae/ (tests only).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryToFloat32, parseSafetensors } from '../../io/safetensors/read.ts';
import type { Tensor5 } from './video-tensor.ts';

export const VAE_FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../fixtures/cogvideox-vae',
);
export const VAE_CASES = ['vae-tiny', 'vae-real-shape'] as const;

export const vaeCaseDir = (name: string): string => path.join(VAE_FIXTURES, name);

function tensor(file: string, name: string): Tensor5 {
  const st = parseSafetensors(new Uint8Array(readFileSync(file)), file);
  const e = st.tensors.get(name);
  if (!e) throw new Error(`${file} has no tensor ${name}`);
  return { data: entryToFloat32(e, file), dims: e.shape as unknown as Tensor5['dims'] };
}

export function loadVaeCase(name: string): { latents: Tensor5; expected: Tensor5; tolerance: number } {
  const dir = vaeCaseDir(name);
  const meta = JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as {
    tolerance: { max_abs_error_relative_to_max_abs_expected: number };
  };
  return {
    latents: tensor(path.join(dir, 'inputs.safetensors'), 'latents'),
    expected: tensor(path.join(dir, 'expected.safetensors'), 'sample'),
    tolerance: meta.tolerance.max_abs_error_relative_to_max_abs_expected,
  };
}
