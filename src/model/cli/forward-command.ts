// `consisid forward`: inputs.safetensors (fixture names) -> out.safetensors with `sample`.
import { readFile, writeFile } from 'node:fs/promises';
import { ConsisIDTransformer3DModel } from '../node.ts';
import { argsFromNamedTensors } from '../models/consisid/named-inputs.ts';
import { entryToHost, parseSafetensors } from '../io/safetensors/read.ts';
import { writeSafetensors } from '../io/safetensors/write.ts';
import type { StageEvent } from '../runtime/events.ts';
import { UsageError, type Command, type Flags } from './flags.ts';
import {
  checkModelArg,
  effectivePrecision,
  MODEL_FLAG,
  modelOptions,
  positiveInt,
  PRECISION_VALUE,
  RUN_FLAGS,
  SOURCE_FLAGS,
  weightPrecision,
} from './model-options.ts';
import { checkOutputFile, writeInPlace } from './output-files.ts';
import { relativeError, type HostTensor } from '../io/tensor.ts';
import type { WeightPrecision } from '../plan/precision.ts';

const ms = (v: number): string => `${v.toFixed(0)} ms`;

const PREPACK_FLOAT32_FROM = 40;

/**
 * Whether onnxruntime-node should prepack the weights for `forwards` forwards: float32 weights from
 * PREPACK_FLOAT32_FROM forwards on (a slower session that faster forwards pay back), float16 never
 * (its forwards are slower prepacked), quantized ones always (src/model/README.md, `prepack`).
 */
export function prepackFor(precision: WeightPrecision, forwards: number): boolean {
  if (precision === 'int8' || precision === 'int4') return true;
  return precision === 'float32' && forwards >= PREPACK_FLOAT32_FROM;
}

export const forwardCommand: Command = {
  name: 'forward',
  summary: 'Runs the transformer on inputs from a safetensors file and writes its `sample` output.',
  flags: {
    ...MODEL_FLAG,
    inputs: {
      value: '<inputs.safetensors>',
      required: true,
      help: 'the inputs, under the fixture names (id_vit_hidden.0.., image_rotary_emb.cos/.sin)',
    },
    out: { value: '<out.safetensors>', required: true, help: 'where the output `sample` is written' },
    repeat: {
      value: 'n',
      help: `forwards on one session, each printed (default 1; float32 weights are prepacked from ${PREPACK_FLOAT32_FROM})`,
    },
    ...RUN_FLAGS,
    compare: {
      value: PRECISION_VALUE,
      help: "afterwards, run this precision (not the run's own) and print the max relative error against it",
    },
    ...SOURCE_FLAGS,
  },
  run: forward,
};

async function forward(flags: Flags, log: (line: string) => void): Promise<void> {
  const modelId = flags.need('model');
  const inputsPath = flags.need('inputs');
  const outPath = flags.need('out');
  const repeat = positiveInt(flags, 'repeat') ?? 1;
  const compare = weightPrecision(flags, 'compare');
  const opts = modelOptions(flags, log);
  // on cpu each model prepacks where its forwards pay for it (the --compare run is one forward)
  const prepack = (precision: WeightPrecision, forwards: number) =>
    opts.device === 'cpu' ? { prepack: prepackFor(precision, forwards) } : {};
  if (compare === effectivePrecision(opts))
    throw new UsageError(
      `--compare ${compare} is the precision this run uses: compare with another one (or choose it with --weights)`,
    );
  checkOutputFile('out', outPath);
  checkModelArg(modelId, opts);
  const bytes = await readFile(inputsPath).catch((e: NodeJS.ErrnoException) => {
    throw e.code === 'ENOENT'
      ? new UsageError(`--inputs ${inputsPath}: no such file`)
      : new Error(`--inputs ${inputsPath}: ${e.message}`);
  });
  const st = parseSafetensors(new Uint8Array(bytes), inputsPath);
  const args = argsFromNamedTensors(
    new Map([...st.tensors].map(([k, e]) => [k, entryToHost(e, inputsPath)])),
    inputsPath,
  );
  log(`loading ${modelId}`);
  const stages: string[] = [];
  const onStage = (e: StageEvent) => {
    if (e.state === 'end' && e.stage !== 'forward') stages.push(`${e.stage} ${ms(e.ms)}`);
  };
  const model = await ConsisIDTransformer3DModel.fromPretrained(modelId, {
    ...opts,
    ...prepack(effectivePrecision(opts), repeat),
    onStage,
  });
  let sample: HostTensor | undefined;
  try {
    for (let i = 1; i <= repeat; i++) {
      let forwardMs = 0;
      const out = await model.forward(args, {
        onStage: (e) => {
          if (e.state === 'end' && e.stage === 'forward') forwardMs = e.ms;
        },
      });
      sample = out.sample;
      const setup = stages.splice(0).join(', ');
      log(
        `forward ${i}/${repeat} on ${model.device}, ${model.weightPrecision} weights: ${ms(forwardMs)}${setup ? ` (${setup})` : ''}, sample (${sample.shape.join(', ')})`,
      );
    }
    await writeInPlace([outPath], ([tmp]) => writeFile(tmp!, writeSafetensors({ sample: sample! }, { format: 'pt' })));
    log(`wrote ${outPath}`);
  } finally {
    await model.release();
  }
  if (compare) {
    // the reference runs after the first model is released: one session's weights in memory at a time
    const reference = await ConsisIDTransformer3DModel.fromPretrained(modelId, {
      ...opts,
      ...prepack(compare, 1),
      weights: compare,
      dtype: undefined,
    });
    try {
      const { sample: expected } = await reference.forward(args);
      log(
        `max relative error vs ${compare}: ${relativeError(sample!.data as Float32Array, expected.data as Float32Array).toExponential(2)} (max|a - e| / max|e|)`,
      );
    } finally {
      await reference.release();
    }
  }
}
