// `consisid export`: a standalone ONNX model for one input shape (external data for large weights).
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConsisIDTransformer3DModel } from '../models/consisid/consisid-model.ts';
import { nodeEnvironment } from '../node.ts';
import { loadCheckpoint } from '../models/consisid/load-checkpoint.ts';
import { buildConsisIDGraph } from '../graph/transformer.ts';
import { encodeModel, tensorBytes, type ExternalLocation, type TensorDef } from '../onnx/onnx-proto.ts';
import { layoutExternalData } from '../onnx/external-data.ts';
import { sessionModel } from '../runtime/session-model.ts';
import { computeDtypeFor, quantizationFor } from '../plan/precision.ts';
import type { SessionModel } from '../runtime/types.ts';
import { UsageError, type Command, type Flags } from './flags.ts';
import { checkModelArg, MODEL_FLAG, modelOptions, RUN_FLAGS, SOURCE_FLAGS } from './model-options.ts';
import { checkOutputFile, writeInPlace } from './output-files.ts';
import { parseShapeSpec, SHAPE_FLAG } from './shape-spec.ts';

const PROTO_LIMIT = 2 ** 31 - 2 ** 26;
const DEFAULT_EXTERNAL_THRESHOLD = 2 ** 30;

/** the bytes an external location of a session model names */
async function readLocation(m: SessionModel, loc: ExternalLocation): Promise<Uint8Array> {
  const source = m.externalData.get(loc.location);
  if (!source) throw new Error(`no data for external location ${loc.location}`);
  if (source.kind === 'bytes') return source.data.subarray(loc.offset, loc.offset + loc.length);
  if (source.kind === 'blob')
    return new Uint8Array(await source.data.slice(loc.offset, loc.offset + loc.length).arrayBuffer());
  const fh = await open(source.path, 'r');
  try {
    const out = new Uint8Array(loc.length);
    const { bytesRead } = await fh.read(out, 0, loc.length, loc.offset);
    if (bytesRead !== loc.length) throw new Error(`${source.path}: short read at ${loc.offset}`);
    return out;
  } finally {
    await fh.close();
  }
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'Writes a standalone ONNX model for one input shape (positional tables baked in).',
  flags: {
    ...MODEL_FLAG,
    out: { value: '<model.onnx>', required: true, help: 'the ONNX file to write' },
    ...SHAPE_FLAG,
    weights: RUN_FLAGS.weights,
    dtype: RUN_FLAGS.dtype,
    device: { value: 'cpu|wasm|webgpu', help: 'whose ops the graph holds (default cpu)' },
    attention: {
      value: 'fused|decomposed',
      help: 'MultiHeadAttention (fused, the default) or MatMul-Softmax-MatMul (decomposed)',
    },
    'external-data': {
      help: `weights into <model.onnx>.data, 4 KiB-aligned ONNX external data (the default over ${DEFAULT_EXTERNAL_THRESHOLD / 2 ** 30} GiB of weights)`,
    },
    'no-external-data': { help: 'every weight inside the ONNX file (at most 2 GiB)' },
    ...SOURCE_FLAGS,
  },
  run: exportModel,
};

async function exportModel(flags: Flags, log: (line: string) => void): Promise<void> {
  const modelId = flags.need('model');
  const out = flags.need('out');
  if (flags.has('external-data') && flags.has('no-external-data'))
    throw new UsageError('--external-data and --no-external-data contradict each other: give one');
  const opts = modelOptions(flags, log, ['cpu', 'wasm', 'webgpu']);
  const attention = flags.get('attention') ?? 'fused';
  if (attention !== 'fused' && attention !== 'decomposed')
    throw new UsageError(`--attention must be fused or decomposed, got ${attention}`);
  checkOutputFile('out', out);
  checkModelArg(modelId, opts);
  const source = await ConsisIDTransformer3DModel.resolveSource(modelId, opts, nodeEnvironment);
  log(`loading ${modelId}`);
  const { config, weights, files } = await loadCheckpoint(source, {
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  const shape = parseShapeSpec(flags.get('shape'), config);
  const precision = opts.weights ?? 'float32';
  const built = buildConsisIDGraph(config, weights, shape, {
    dtype: computeDtypeFor(precision, opts.dtype),
    quantization: quantizationFor(precision, opts.device ?? 'cpu'),
    attention,
  });
  const m = await sessionModel(built.model, files);
  const weightBytes = m.model.graph.initializers.reduce((s, t) => s + tensorBytes(t), 0);
  const external =
    flags.has('external-data') || (!flags.has('no-external-data') && weightBytes > DEFAULT_EXTERNAL_THRESHOLD);
  if (!external && weightBytes > PROTO_LIMIT)
    throw new UsageError(
      `the weights (${(weightBytes / 2 ** 30).toFixed(2)} GiB) exceed the 2 GiB protobuf limit: drop --no-external-data`,
    );
  const inputs = built.inputs.map((i) => `${i.name} (${i.dims.join(', ')})`).join(', ');
  if (!external) {
    const initializers: TensorDef[] = [];
    for (const t of m.model.graph.initializers)
      initializers.push(
        t.external ? { name: t.name, type: t.type, dims: t.dims, raw: await readLocation(m, t.external) } : t,
      );
    await writeInPlace([out], ([tmp]) =>
      writeFile(tmp!, encodeModel({ ...m.model, graph: { ...m.model.graph, initializers } })),
    );
    log(`wrote ${out}: inputs ${inputs}; output sample (${built.outputShape.join(', ')})`);
    return;
  }
  // the model names its data file; both are written under temporary names and renamed, data first
  const location = `${path.basename(out)}.data`;
  const dataPath = path.join(path.dirname(out), location);
  checkOutputFile('out', dataPath);
  const layout = layoutExternalData(m.model, location);
  await writeInPlace([dataPath, out], async ([tmpData, tmpModel]) => {
    const fh = await open(tmpData!, 'w');
    try {
      for (const move of layout.moves) {
        const bytes = move.from instanceof Uint8Array ? move.from : await readLocation(m, move.from);
        await fh.write(bytes, 0, bytes.length, move.offset);
      }
    } finally {
      await fh.close();
    }
    await writeFile(tmpModel!, encodeModel(layout.model));
  });
  log(
    `wrote ${out} + ${location} (${(layout.dataLength / 2 ** 20).toFixed(1)} MiB, ${precision} weights): inputs ${inputs}; output sample (${built.outputShape.join(', ')})`,
  );
}
