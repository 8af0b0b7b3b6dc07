// What a preview run is asked for and what it reports: shared by the pipeline, the page's worker
// protocol and the benches.
import type { ForwardArgs } from '../models/consisid/forward-inputs.ts';
import type { DeviceForward } from '../runtime/device-forward.ts';
import type { HostTensor } from '../io/tensor.ts';
import type { InputSpec } from '../graph/input-spec.ts';
import type { F32Tensor } from './inputs.ts';

export interface Uploads {
  /** (1, L, text_embed_dim) text embeddings in place of random ones */
  text?: F32Tensor;
  /** identity inputs in place of random ones */
  idCond?: F32Tensor;
  idVitHidden?: F32Tensor[];
}

export interface PreviewRequest {
  spec: InputSpec;
  mode: 'forward' | 'denoise';
  steps: number;
  /** classifier-free guidance scale; 1 or less turns it off */
  guidance: number;
  uploads: Uploads;
}

export interface Timings {
  /** reading the weights (browser cache or hub) and parsing them */
  loadMs: number;
  graphBuildMs: number[];
  sessionCreateMs: number[];
  forwardMs: number[];
  rotaryMs: number;
}

export interface StepFrame {
  index: number;
  total: number;
  timestep: number;
  shape: number[];
  /** absent for a step the page was not sent (a later one came within the frame interval) */
  latents?: Float32Array;
  forwardMs: number;
}

/** what a run copied from the model's outputs to the host: on WebGPU, GPU read-backs */
export interface Readback {
  count: number;
  bytes: number;
}

export interface RunHooks {
  forward(args: ForwardArgs): Promise<HostTensor>;
  /** the denoising loop on the model's device: its inputs uploaded once, the latents never read back between steps */
  onDevice?(args: ForwardArgs): Promise<DeviceForward>;
  stage(s: string): void;
  step(frame: StepFrame): void;
}
