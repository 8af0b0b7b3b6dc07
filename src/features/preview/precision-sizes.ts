// The weight bytes a session holds at each precision, from the model's plan of the graph it builds
// for the checkpoint (from its headers: no tensor is read). The download is the checkpoint either
// way: float16, int8 and int4 are made from its weights when the session is created.
import { DEFAULT_VIT_TOKENS, defaultSpec } from './inputs.ts';
import type { Device } from './protocol.ts';
import { type ConsisIDConfig, planPrecisions, type WeightPrecision, type WeightSet } from '../../model/index.ts';

export type PrecisionSizes = Record<WeightPrecision, number>;

export function precisionSizes(config: ConsisIDConfig, weights: WeightSet, device: Device): PrecisionSizes {
  const spec = defaultSpec(config);
  const face = config.is_train_face
    ? { idBatch: 1, vitLengths: Array.from({ length: config.LFE_num_scale }, () => DEFAULT_VIT_TOKENS) }
    : null;
  const shape = {
    batch: 1,
    frames: spec.frames,
    height: spec.height,
    width: spec.width,
    textLength: spec.textLength,
    timestepCond: false,
    rotary: config.use_rotary_positional_embeddings,
    face,
  };
  return Object.fromEntries(
    planPrecisions(config, shape, device, weights).map((p) => [p.weights, p.weightBytes]),
  ) as PrecisionSizes;
}
