// `consisid export`: a standalone ONNX model for one input shape (external data for large weights).
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConsisIDTransformer3DModel } from '../consisid-model.ts';
import { nodeEnvironment } from '../node.ts';
import { loadCheckpoint } from '../loader/load-checkpoint.ts';
import { buildConsisIDGraph } from '../graph/transformer.ts';
import { encodeModel } from '../onnx/onnx-proto.ts';
import { withExternalData } from '../onnx/external-data.ts';
import { parseFlags, UsageError } from './flags.ts';
import { MODEL_VALUE_FLAGS, modelOptions } from './model-options.ts';
import { parseShapeSpec } from './shape-spec.ts';

const PROTO_LIMIT = 2 ** 31 - 2 ** 26;
const DEFAULT_EXTERNAL_THRESHOLD = 2 ** 30;

export async function exportCommand(argv: readonly string[], log: (line: string) => void): Promise<void> {
  const flags = parseFlags(argv, { values: [...MODEL_VALUE_FLAGS, 'out', 'shape'], switches: ['external-data', 'no-external-data'] });
  const modelId = flags.need('model');
  const out = flags.need('out');
  const opts = modelOptions(flags, log);
  const source = await ConsisIDTransformer3DModel.resolveSource(modelId, opts, nodeEnvironment);
  log(`loading ${modelId}`);
  const { config, weights } = await loadCheckpoint(source, { ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
  const shape = parseShapeSpec(flags.get('shape'), config);
  const built = buildConsisIDGraph(config, weights, shape, { dtype: opts.dtype ?? 'float32' });
  const weightBytes = built.model.graph.initializers.reduce((s, t) => s + (t.raw?.length ?? 0), 0);
  const external = flags.has('external-data') || (!flags.has('no-external-data') && weightBytes > DEFAULT_EXTERNAL_THRESHOLD);
  if (!external && weightBytes > PROTO_LIMIT) throw new UsageError(`the weights (${(weightBytes / 2 ** 30).toFixed(2)} GiB) exceed the 2 GiB protobuf limit: drop --no-external-data`);
  const inputs = built.inputs.map((i) => `${i.name} (${i.dims.join(', ')})`).join(', ');
  if (!external) {
    await writeFile(out, encodeModel(built.model));
    log(`wrote ${out}: inputs ${inputs}; output sample (${built.outputShape.join(', ')})`);
    return;
  }
  const location = `${path.basename(out)}.data`;
  const ext = withExternalData(built.model, location);
  await writeFile(out, ext.model);
  const fh = await open(path.join(path.dirname(out), location), 'w');
  try {
    for (const c of ext.chunks) await fh.write(c.bytes, 0, c.bytes.length, c.offset);
  } finally {
    await fh.close();
  }
  log(`wrote ${out} + ${location} (${(ext.dataLength / 2 ** 20).toFixed(1)} MiB): inputs ${inputs}; output sample (${built.outputShape.join(', ')})`);
}
