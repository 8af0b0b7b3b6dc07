// Messages between the preview page and its model worker.
import type { CheckpointRef } from './checkpoint.ts';
import type { F32Tensor, InputSpec } from './inputs.ts';

export type Device = 'webgpu' | 'wasm';

export interface Uploads {
  /** (1, L, text_embed_dim) text embeddings in place of random ones */
  text?: F32Tensor;
  /** identity inputs in place of random ones */
  idCond?: F32Tensor;
  idVitHidden?: F32Tensor[];
}

export interface RunRequest {
  spec: InputSpec;
  mode: 'forward' | 'denoise';
  steps: number;
  /** classifier-free guidance scale; 1 or less turns it off */
  guidance: number;
  uploads: Uploads;
}

export type ToWorker =
  | { type: 'load'; ref: CheckpointRef; files: string[]; device: Device; threads: number; /** WebGPU session failures fall back to WASM (automatic provider choice) */ fallback: boolean }
  | { type: 'run'; id: number; request: RunRequest };

export interface Timings {
  /** reading the cached files and parsing the weights */
  loadMs: number;
  graphBuildMs: number[];
  sessionCreateMs: number[];
  forwardMs: number[];
  rotaryMs: number;
}

export type FromWorker =
  | { type: 'log'; message: string }
  | { type: 'fallback'; from: Device; to: Device; reason: string }
  | { type: 'loaded'; device: Device; loadMs: number; params: number }
  | { type: 'stage'; id: number; stage: string }
  | { type: 'step'; id: number; index: number; total: number; timestep: number; shape: number[]; latents: Float32Array; forwardMs: number }
  | { type: 'done'; id: number; shape: number[]; sample: Float32Array; timings: Timings; provider: string }
  | { type: 'error'; id: number | null; message: string };
