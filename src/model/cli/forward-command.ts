// `consisid forward`: inputs.safetensors (fixture names) -> out.safetensors with `sample`.
import { readFile, writeFile } from 'node:fs/promises';
import { ConsisIDTransformer3DModel } from '../node.ts';
import { argsFromNamedTensors } from '../named-inputs.ts';
import { entryToHost, parseSafetensors } from '../safetensors/read.ts';
import { writeSafetensors } from '../safetensors/write.ts';
import { parseFlags } from './flags.ts';
import { MODEL_VALUE_FLAGS, modelOptions } from './model-options.ts';

export async function forwardCommand(argv: readonly string[], log: (line: string) => void): Promise<void> {
  const flags = parseFlags(argv, { values: [...MODEL_VALUE_FLAGS, 'inputs', 'out'], switches: [] });
  const modelId = flags.need('model');
  const inputsPath = flags.need('inputs');
  const outPath = flags.need('out');
  const opts = modelOptions(flags, log);
  const st = parseSafetensors(new Uint8Array(await readFile(inputsPath)), inputsPath);
  const args = argsFromNamedTensors(new Map([...st.tensors].map(([k, e]) => [k, entryToHost(e, inputsPath)])), inputsPath);
  log(`loading ${modelId}`);
  const model = await ConsisIDTransformer3DModel.fromPretrained(modelId, opts);
  try {
    const t0 = performance.now();
    const { sample } = await model.forward(args);
    log(`forward on ${opts.device}: ${(performance.now() - t0).toFixed(0)} ms, sample (${sample.shape.join(', ')})`);
    await writeFile(outPath, writeSafetensors({ sample }, { format: 'pt' }));
    log(`wrote ${outPath}`);
  } finally {
    await model.release();
  }
}
