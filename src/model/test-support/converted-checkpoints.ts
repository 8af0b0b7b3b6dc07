// Checkpoints and sessions for the conversion tests: a bfloat16 checkpoint in two shards, its files
// streamed in pieces, and the initializers' bytes of a session model over the weights converted.
import { loadCheckpoint, type Checkpoint } from '../models/consisid/load-checkpoint.ts';
import { localSource } from '../io/local-source.ts';
import { memorySource } from '../io/memory-source.ts';
import { writeCheckpointFiles } from '../models/consisid/checkpoint-writer.ts';
import { randomWeights } from '../models/consisid/random-weights.ts';
import { buildConsisIDGraph } from '../graph/transformer.ts';
import { prepareForward } from '../models/consisid/forward-inputs.ts';
import { sessionModel } from '../runtime/session-model.ts';
import { computeDtypeFor, quantizationFor, type WeightPrecision } from '../plan/precision.ts';
import type { SessionModel } from '../runtime/types.ts';
import type { WeightCache } from '../cache/weight-cache.ts';
import type { WeightSet } from '../io/safetensors/weight-set.ts';
import { fixtureDir, loadFixture } from './fixtures.ts';
import { conversionPlan } from '../convert/conversion-plan.ts';
import { weightConverter, type WeightConverter } from '../convert/weight-converter.ts';
import type { FileSource } from '../io/file-source.ts';

export const fixture = loadFixture('tiny-face');

/** the tiny identity-module config with random bfloat16 weights in two shards, as published checkpoints are */
export async function bf16Checkpoint(): Promise<{ checkpoint: Checkpoint; files: Map<string, Uint8Array> }> {
  const { config } = await loadCheckpoint(localSource(fixtureDir('tiny-face')));
  const written = writeCheckpointFiles({ ...config }, randomWeights(config, 11, 'bfloat16'), { shards: 2 });
  const checkpoint = await loadCheckpoint(memorySource(written));
  return { checkpoint, files: new Map(written.map((f) => [f.path, f.bytes])) };
}

/** the files as a source read in parts, counting the bytes read */
export function pieces(files: Map<string, Uint8Array>): FileSource & { streamed: number } {
  const src = {
    streamed: 0,
    describe: (name: string) => `mem://${name}`,
    read: async (name: string) => files.get(name) ?? null,
    async open(name: string) {
      const bytes = files.get(name);
      if (!bytes) return null;
      return {
        size: bytes.length,
        etag: '"1"',
        read: async (offset: number, length: number) => {
          src.streamed += length;
          return bytes.slice(offset, offset + length);
        },
      };
    },
  };
  return src;
}

/** each initializer's bytes by name, wherever the session model keeps them */
export async function initializerBytes(m: SessionModel): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for (const t of m.model.graph.initializers) {
    if (t.raw) out.set(t.name, t.raw);
    if (!t.external) continue;
    const s = m.externalData.get(t.external.location)!;
    const { offset, length } = t.external;
    if (s.kind === 'bytes') out.set(t.name, s.data.slice(offset, offset + length));
    if (s.kind === 'blob') out.set(t.name, new Uint8Array(await s.data.slice(offset, offset + length).arrayBuffer()));
  }
  return out;
}

export const buildFor = (ck: Checkpoint, precision: WeightPrecision) => (weights: WeightSet) =>
  buildConsisIDGraph(ck.config, weights, prepareForward(ck.config, fixture.args).shape, {
    dtype: computeDtypeFor(precision, undefined),
    quantization: quantizationFor(precision, 'cpu'),
  });

/** the session model of `build` over the converted weights, as the model makes its whole graph's (consisid-model.ts graphFor) */
export async function convertedSession(
  build: ReturnType<typeof buildFor>,
  checkpoint: Checkpoint,
  precision: WeightPrecision,
  converter: WeightConverter,
): Promise<SessionModel> {
  const plan = conversionPlan(build(checkpoint.weights).model, checkpoint.weights, precision);
  const { weights, files, precomputed } = await converter.convert(precision, plan, checkpoint);
  return sessionModel(build(weights).model, files, { precomputed });
}

/** the initializers' bytes of the session model over the weights converted from `source` through `cache` */
export const convertedBytes = async (
  build: ReturnType<typeof buildFor>,
  checkpoint: Checkpoint,
  precision: WeightPrecision,
  source: FileSource,
  cache: WeightCache,
  chunkBytes: number,
) =>
  initializerBytes(
    await convertedSession(build, checkpoint, precision, weightConverter(source, { cache, chunkBytes })),
  );
