// `consisid generate`: a checkpoint folder with random weights for a config (tests, benchmarks,
// trying the preview page with a big checkpoint), and optionally random inputs for `forward`.
import { writeFile } from 'node:fs/promises';
import { writeCheckpointFolder } from '../models/consisid/checkpoint-folder.ts';
import { expectedParameters } from '../graph/parameters.ts';
import {
  WEIGHT_FAMILIES,
  fillUniform,
  isWeightFamily,
  prng,
  type WeightDtype,
} from '../models/consisid/random-weights.ts';
import { prepareRotaryEmbeddings } from '../models/consisid/rope.ts';
import { writeSafetensors } from '../io/safetensors/write.ts';
import type { ConsisIDConfig } from '../graph/config.ts';
import type { GraphShape } from '../graph/transformer.ts';
import type { HostTensor } from '../io/tensor.ts';
import { readConfigArg } from './config-arg.ts';
import { NAMED_CONFIGS } from '../models/consisid/named-configs.ts';
import { UsageError, type Command, type Flags } from './flags.ts';
import { positiveInt } from './model-options.ts';
import { checkOutputFile, checkOutputFolder, writeInPlace } from './output-files.ts';
import { parseShapeSpec, SHAPE_FLAG } from './shape-spec.ts';
import { readVaeConfigArg, writeVaeFolder } from '../models/vae/vae-folder.ts';
import path from 'node:path';

const DTYPES: readonly WeightDtype[] = ['float32', 'float16', 'bfloat16'];

/** random forward inputs of a shape, under the names `forward --inputs` reads */
export function randomInputs(c: ConsisIDConfig, s: GraphShape, seed: number): Record<string, HostTensor> {
  const rand = prng(seed);
  const randn = (shape: number[]): HostTensor => ({
    dtype: 'float32',
    shape,
    data: fillUniform(new Float32Array(shape.reduce((a, b) => a * b, 1)), rand, 1),
  });
  const out: Record<string, HostTensor> = {
    hidden_states: randn([s.batch, s.frames, c.in_channels, s.height, s.width]),
    encoder_hidden_states: randn([s.batch, s.textLength, c.text_embed_dim]),
    timestep: { dtype: 'int64', shape: [s.batch], data: new BigInt64Array(s.batch).fill(500n) },
  };
  if (s.timestepCond) out.timestep_cond = randn([s.batch, c.time_embed_dim]);
  if (s.rotary) {
    const [cos, sin] = prepareRotaryEmbeddings(c, { height: s.height * 8, width: s.width * 8, numFrames: s.frames });
    out['image_rotary_emb.cos'] = cos;
    out['image_rotary_emb.sin'] = sin;
  }
  if (s.face) {
    out.id_cond = randn([s.face.idBatch, c.LFE_id_dim]);
    s.face.vitLengths.forEach((n, i) => (out[`id_vit_hidden.${i}`] = randn([s.face!.idBatch, n, c.LFE_vit_dim])));
  }
  return out;
}

export const generateCommand: Command = {
  name: 'generate',
  summary: 'Writes a checkpoint of random weights for a config, tensor by tensor (any size), and random inputs for it.',
  flags: {
    config: {
      value: '<name | config.json>',
      required: true,
      help: `a config name (${Object.keys(NAMED_CONFIGS).join(', ')}), or a config.json file or a folder holding one`,
    },
    out: { value: '<new or empty dir>', required: true, help: 'the checkpoint folder to write' },
    dtype: { value: DTYPES.join('|'), help: "the weights' dtype (default float32)" },
    shards: { value: 'n', help: 'safetensors files to split the weights into, with their index (default 1)' },
    seed: { value: 'n', help: "the random weights' seed (default 42; the inputs take seed + 1)" },
    family: {
      value: WEIGHT_FAMILIES.join('|'),
      help: 'uniform (the default), heavy (Gaussian noise of std 0.05 on every weight) or outliers (a few large channels)',
    },
    inputs: { value: '<inputs.safetensors>', help: 'also write random inputs for `forward`, of --shape' },
    vae: {
      value: '<released | small | config.json>',
      help: 'also write a VAE of random decoder weights (any size; released: the ConsisID one) into <out>/vae/',
    },
    ...SHAPE_FLAG,
  },
  run: generate,
};

async function generate(flags: Flags, log: (line: string) => void): Promise<void> {
  const { raw, config, label } = await readConfigArg(flags.need('config'));
  const dtype = (flags.get('dtype') ?? 'float32') as WeightDtype;
  if (!DTYPES.includes(dtype)) throw new UsageError(`--dtype must be one of ${DTYPES.join(', ')}, got ${dtype}`);
  const family = flags.get('family') ?? 'uniform';
  if (!isWeightFamily(family))
    throw new UsageError(`--family must be one of ${WEIGHT_FAMILIES.join(', ')}, got ${family}`);
  const seed = positiveInt(flags, 'seed') ?? 42;
  const out = flags.need('out');
  const shards = positiveInt(flags, 'shards') ?? 1;
  const tensors = expectedParameters(config).size;
  if (shards > tensors)
    throw new UsageError(`--shards must be at most ${tensors} (the config's weight tensors), got ${shards}`);
  const inputs = flags.get('inputs');
  if (flags.get('shape') !== undefined && !inputs)
    throw new UsageError('--shape describes the inputs: give --inputs too');
  // everything checked before the first byte is written
  const shape = inputs ? parseShapeSpec(flags.get('shape'), config) : null;
  if (inputs) checkOutputFile('inputs', inputs);
  const vae = flags.get('vae') === undefined ? null : await readVaeConfigArg(flags.need('vae'));
  await checkOutputFolder('out', out);
  let bytes = 0;
  let vaeBytes = 0;
  await writeInPlace([out], async ([tmp]) => {
    bytes = await writeCheckpointFolder(tmp!, raw, config, { dtype, seed, shards, family });
    if (vae) vaeBytes = await writeVaeFolder(path.join(tmp!, 'vae'), vae.raw, { dtype, seed });
  });
  log(`wrote ${out}: ${label}, ${(bytes / 2 ** 20).toFixed(1)} MiB of ${dtype} weights (${family})`);
  if (vae)
    log(
      `wrote ${path.join(out, 'vae')}: ${vae.label}, ${(vaeBytes / 2 ** 20).toFixed(1)} MiB of ${dtype} decoder weights`,
    );
  if (inputs && shape) {
    await writeInPlace([inputs], ([tmp]) =>
      writeFile(tmp!, writeSafetensors(randomInputs(config, shape, seed + 1), { format: 'pt' })),
    );
    log(`wrote ${inputs}`);
  }
}
