import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeCheckpointFiles } from '../models/consisid/checkpoint-writer.ts';
import { ConsisIDTransformer3DModel } from '../models/consisid/consisid-model.ts';
import { prepareForward } from '../models/consisid/forward-inputs.ts';
import { loadCheckpoint } from '../models/consisid/load-checkpoint.ts';
import { localSource } from '../io/local-source.ts';
import { memoryCache } from '../test-support/memory-cache.ts';
import { memorySource } from '../io/memory-source.ts';
import { computeDtypeFor } from '../plan/precision.ts';
import { randomWeights } from '../models/consisid/random-weights.ts';
import type { InferenceBackend } from '../runtime/types.ts';
import { storageNeed } from '../plan/storage-fit.ts';
import { fixtureDir, loadFixture } from '../test-support/fixtures.ts';
import { conversionPlan } from './conversion-plan.ts';
import { convertedSizes } from './conversion-plan.ts';
import { weightConverter } from './weight-converter.ts';
import { pieces } from '../test-support/converted-checkpoints.ts';

/** a backend that makes no session: the model only builds graphs here */
const graphsOnly: InferenceBackend = {
  devices: ['cpu', 'wasm', 'webgpu'],
  createSession: () => Promise.reject(new Error('no session in this test')),
};

const bases = ['tiny-base', 'tiny-face'] as const;

describe('the converted bytes a precision needs, from the headers before download', () => {
  it('are the bytes the converter writes, for any config, checkpoint dtype, shards, precision and device', async () => {
    const configs = new Map(
      await Promise.all(
        bases.map(async (b) => [b, (await loadCheckpoint(localSource(fixtureDir(b)))).config] as const),
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...bases),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom('float32' as const, 'float16' as const, 'bfloat16' as const),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom('float16' as const, 'int8' as const, 'int4' as const),
        fc.constantFrom('wasm' as const, 'webgpu' as const),
        async (base, layers, dtype, shards, precision, device) => {
          // a face config's layers come in multiples of its cross-attention interval
          const had = configs.get(base)!;
          const config = { ...had, num_layers: layers * (had.is_train_face ? had.cross_attn_interval : 1) };
          const written = writeCheckpointFiles({ ...config }, randomWeights(config, layers, dtype), { shards });
          const checkpoint = await loadCheckpoint(memorySource(written));
          const shape = prepareForward(checkpoint.config, loadFixture(base).args).shape;
          const sizes = convertedSizes(checkpoint.config, checkpoint.weights, shape, device, [precision]);

          // the conversion the model itself asks for: its graph for the shape and device, then the converter
          const model = ConsisIDTransformer3DModel.fromCheckpoint(checkpoint, {
            backend: graphsOnly,
            device,
            weights: precision,
            dtype: computeDtypeFor(precision, undefined),
          });
          const plan = conversionPlan(model.buildGraph(shape, device).model, checkpoint.weights, precision);
          const files = new Map(written.map((f) => [f.path, f.bytes]));
          const converted = await weightConverter(pieces(files), { cache: memoryCache() }).convert(
            precision,
            plan,
            checkpoint,
          );
          const bytes = [...converted.files.values()]
            .filter((f) => f.name.startsWith(`${precision}/`))
            .reduce((n, f) => n + f.size, 0);
          expect(sizes).toEqual({ [precision]: bytes });
          // the storage rule needs exactly those bytes, not the plan's figure, less what is cached
          const storage = { free: 0, unusable: null, converted: sizes };
          expect(storageNeed(precision, 1, storage)).toBe(bytes);
          const cached = { [precision]: { bytes: 100, complete: false } };
          expect(storageNeed(precision, 1, { ...storage, cached })).toBe(bytes - 100);
        },
      ),
      { numRuns: 12 },
    );
  });
});
