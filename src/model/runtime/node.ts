// Node backend: onnxruntime-node for "cpu", onnxruntime-web's WASM build for "wasm".
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { encodeModel, type TensorDef } from '../onnx/onnx-proto.ts';
import { wrapSession } from './ort-session.ts';
import { UnsupportedDeviceError, type ExternalDataSource, type InferenceBackend, type SessionModel } from './types.ts';
import { webBackend } from './web.ts';

type NodeSessionInput = { model: Uint8Array; folder?: string; externalData?: { path: string; data: Uint8Array }[] };

/** bytes [offset, offset + length) of a file */
async function readRange(file: string, offset: number, length: number): Promise<Uint8Array> {
  const fh = await open(file, 'r');
  try {
    const out = new Uint8Array(length);
    const { bytesRead } = await fh.read(out, 0, length, offset);
    if (bytesRead !== length) throw new Error(`${file}: ${bytesRead} of ${length} bytes at ${offset}`);
    return out;
  } finally {
    await fh.close();
  }
}

/**
 * onnxruntime-node takes external data either from files in one folder (which it maps) or all from
 * memory, not both. Files only: the folder. Memory only: `externalData`. Both: the smaller side
 * moves to the other, so copies stay small: in-memory tensors (computed weights) go into the graph
 * inline when the files hold more, and the tensors the files hold are read into memory when the
 * computed ones outweigh them (quantized precisions keep only a few small float weights).
 */
export async function nodeSessionInput(m: SessionModel): Promise<NodeSessionInput> {
  const files = new Map([...m.externalData].flatMap(([k, s]) => (s.kind === 'path' ? [[k, s.path] as const] : [])));
  const memory = new Map([...m.externalData].flatMap(([k, s]) => (s.kind === 'bytes' ? [[k, s.data] as const] : [])));
  const allMemory = (model: SessionModel['model'], data: ReadonlyMap<string, Uint8Array>): NodeSessionInput => ({
    model: encodeModel(model),
    externalData: [...data].map(([p, d]) => ({ path: p, data: d })),
  });
  if (!files.size) return allMemory(m.model, memory);
  const bytesIn = (where: ReadonlyMap<string, unknown>) =>
    m.model.graph.initializers.reduce(
      (s, t) => s + (t.external && where.has(t.external.location) ? t.external.length : 0),
      0,
    );
  if (bytesIn(memory) > bytesIn(files)) {
    const data = new Map(memory);
    const initializers: TensorDef[] = [];
    for (const t of m.model.graph.initializers) {
      const file = t.external && files.get(t.external.location);
      if (!file || !t.external) {
        initializers.push(t);
        continue;
      }
      const location = `${t.external.location}@${t.external.offset}`;
      data.set(location, await readRange(file, t.external.offset, t.external.length));
      initializers.push({
        name: t.name,
        type: t.type,
        dims: t.dims,
        external: { location, offset: 0, length: t.external.length },
      });
    }
    return allMemory({ ...m.model, graph: { ...m.model.graph, initializers } }, data);
  }
  const folder = path.dirname([...files.values()][0]!);
  for (const [location, file] of files) {
    if (path.resolve(folder, location) !== path.resolve(file))
      throw new Error(
        `external data ${location} (${file}) is not in ${folder}: onnxruntime reads external files from one folder`,
      );
  }
  const initializers = m.model.graph.initializers.map((t): TensorDef => {
    const data = t.external && memory.get(t.external.location);
    if (!data || !t.external) return t;
    return {
      name: t.name,
      type: t.type,
      dims: t.dims,
      raw: data.subarray(t.external.offset, t.external.offset + t.external.length),
    };
  });
  return { model: encodeModel({ ...m.model, graph: { ...m.model.graph, initializers } }), folder };
}

/** onnxruntime-web in Node has no file access of its own: files become bytes */
export async function inMemory(m: SessionModel): Promise<SessionModel> {
  const externalData = new Map<string, ExternalDataSource>();
  for (const [k, s] of m.externalData) {
    if (s.kind === 'bytes') externalData.set(k, s);
    else
      externalData.set(k, {
        kind: 'bytes',
        data: new Uint8Array(s.kind === 'path' ? await readFile(s.path) : await s.data.arrayBuffer()),
      });
  }
  return { model: m.model, externalData };
}

/**
 * onnxruntime-node session options over the backend's own (`session`: config entries merged into
 * its `extra.session`): a bench compares variants of the project's sessions with them
 */
export type NodeSessionOverrides = Record<string, unknown> & { session?: Record<string, string> };

export function nodeBackend(overrides: NodeSessionOverrides = {}): InferenceBackend {
  const { session: sessionEntries, ...options } = overrides;
  const web = webBackend();
  return {
    devices: ['cpu', 'wasm'],
    async createSession(model, opts) {
      if (opts.device === 'wasm') return web.createSession(await inMemory(model), opts);
      if (opts.device !== 'cpu')
        throw new UnsupportedDeviceError(`device "${opts.device}" is not available in Node; use "cpu" or "wasm"`);
      // Blobs (weights converted into a cache) are read into memory: onnxruntime-node takes files or bytes
      const blobs = [...model.externalData.values()].some((s) => s.kind === 'blob');
      const input = await nodeSessionInput(blobs ? await inMemory(model) : model);
      const session = await ort.InferenceSession.create(input.model, {
        executionProviders: ['cpu'],
        graphOptimizationLevel: 'all',
        // a memory pattern sized on the first run grew peak RSS by ~90 MB on preview-s for no speed
        enableMemPattern: false,
        ...(opts.memArena === false ? { enableCpuMemArena: false } : {}),
        ...(opts.threads ? { intraOpNumThreads: opts.threads, interOpNumThreads: 1 } : {}),
        ...(input.externalData?.length ? { externalData: input.externalData } : {}),
        extra: {
          session: {
            intra_op: { allow_spinning: opts.spin ? '1' : '0' },
            disable_prepacking: opts.prepack === false ? '1' : '0',
            ...(input.folder ? { model_external_initializers_file_folder_path: input.folder } : {}),
            ...sessionEntries,
          },
        },
        ...options,
      });
      return wrapSession(session, (t) => new ort.Tensor('float32', t.data, [...t.dims]));
    },
  };
}

/** runs an ONNX file from disk (external data resolved next to it) on onnxruntime-node */
export async function runOnnxFile(
  file: string,
  feeds: Readonly<Record<string, { data: Float32Array; dims: readonly number[] }>>,
): Promise<Record<string, { data: Float32Array; dims: readonly number[] }>> {
  const session = await ort.InferenceSession.create(file, { executionProviders: ['cpu'] });
  try {
    return await wrapSession(session, (t) => new ort.Tensor('float32', t.data, [...t.dims])).run(feeds);
  } finally {
    await session.release();
  }
}
