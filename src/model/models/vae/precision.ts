// The VAE's precisions: float32, and float16 (float16 weights and compute, the statistics of its
// group norms in float32). int8 and int4 quantize the transformer's Linear layers; the VAE has none.
/** how the decoder holds its weights and computes: float16 weights are float16 compute (VAE_FLOAT16_ERROR) */
export const VAE_PRECISIONS = ['float32', 'float16'] as const;
export type VaePrecision = (typeof VAE_PRECISIONS)[number];

/** the precision, or an error naming the option (int8 and int4 are the transformer's) */
export function checkVaePrecision(weights: unknown): VaePrecision {
  if ((VAE_PRECISIONS as readonly unknown[]).includes(weights)) return weights as VaePrecision;
  const quantized =
    weights === 'int8' || weights === 'int4' ? ": int8 and int4 are the transformer's precisions only" : '';
  throw new Error(
    `weights must be one of ${VAE_PRECISIONS.join(', ')} for the VAE${quantized}; got ${JSON.stringify(weights)}`,
  );
}

/**
 * The largest max|a - e| / max|e| of a float16 decode against the float64 reference, over every
 * golden case (several configs, float16 and bfloat16 shards, tiled) on onnxruntime-node CPU and
 * onnxruntime-web WASM, with a margin (figures per case: docs/vae.md, "float16").
 */
export const VAE_FLOAT16_ERROR = 4e-3;
