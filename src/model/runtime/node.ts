// Node backend: onnxruntime-node for "cpu", onnxruntime-web's WASM build for "wasm".
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { encodeModel, type TensorDef } from '../onnx/onnx-proto.ts';
import { wrapSession } from './ort-session.ts';
import { UnsupportedDeviceError, type ExternalDataSource, type InferenceBackend, type SessionModel } from './types.ts';
import { webBackend } from './web.ts';

/**
 * onnxruntime-node takes external data either from files in one folder (which it maps) or all from
 * memory, not both: with files, in-memory locations (computed tensors) go into the graph inline.
 */
export function nodeSessionInput(m: SessionModel): { model: Uint8Array; folder?: string; externalData?: { path: string; data: Uint8Array }[] } {
  const files = [...m.externalData].filter((e): e is [string, Extract<ExternalDataSource, { kind: 'path' }>] => e[1].kind === 'path');
  const memory = new Map([...m.externalData].flatMap(([k, s]) => (s.kind === 'bytes' ? [[k, s.data] as const] : [])));
  if (!files.length) return { model: encodeModel(m.model), externalData: [...memory].map(([p, data]) => ({ path: p, data })) };
  const folder = path.dirname(files[0]![1].path);
  for (const [location, s] of files) {
    if (path.resolve(folder, location) !== path.resolve(s.path)) throw new Error(`external data ${location} (${s.path}) is not in ${folder}: onnxruntime reads external files from one folder`);
  }
  const initializers = m.model.graph.initializers.map((t): TensorDef => {
    const data = t.external && memory.get(t.external.location);
    if (!data || !t.external) return t;
    return { name: t.name, type: t.type, dims: t.dims, raw: data.subarray(t.external.offset, t.external.offset + t.external.length) };
  });
  return { model: encodeModel({ ...m.model, graph: { ...m.model.graph, initializers } }), folder };
}

/** onnxruntime-web in Node has no file access of its own: files become bytes */
async function inMemory(m: SessionModel): Promise<SessionModel> {
  const externalData = new Map<string, ExternalDataSource>();
  for (const [k, s] of m.externalData) externalData.set(k, s.kind === 'path' ? { kind: 'bytes', data: new Uint8Array(await readFile(s.path)) } : s);
  return { model: m.model, externalData };
}

export function nodeBackend(): InferenceBackend {
  const web = webBackend();
  return {
    devices: ['cpu', 'wasm'],
    async createSession(model, opts) {
      if (opts.device === 'wasm') return web.createSession(await inMemory(model), opts);
      if (opts.device !== 'cpu') throw new UnsupportedDeviceError(`device "${opts.device}" is not available in Node; use "cpu" or "wasm"`);
      const input = nodeSessionInput(model);
      const session = await ort.InferenceSession.create(input.model, {
        executionProviders: ['cpu'],
        graphOptimizationLevel: 'all',
        // a memory pattern sized on the first run grew peak RSS by ~90 MB on preview-s for no speed
        enableMemPattern: false,
        ...(opts.threads ? { intraOpNumThreads: opts.threads, interOpNumThreads: 1 } : {}),
        ...(input.externalData?.length ? { externalData: input.externalData } : {}),
        extra: {
          session: {
            intra_op: { allow_spinning: opts.spin ? '1' : '0' },
            ...(input.folder ? { model_external_initializers_file_folder_path: input.folder } : {}),
          },
        },
      });
      return wrapSession(session, (t) => new ort.Tensor('float32', t.data, [...t.dims]));
    },
  };
}

/** runs an ONNX file from disk (external data resolved next to it) on onnxruntime-node */
export async function runOnnxFile(file: string, feeds: Readonly<Record<string, { data: Float32Array; dims: readonly number[] }>>): Promise<Record<string, { data: Float32Array; dims: readonly number[] }>> {
  const session = await ort.InferenceSession.create(file, { executionProviders: ['cpu'] });
  try {
    return await wrapSession(session, (t) => new ort.Tensor('float32', t.data, [...t.dims])).run(feeds);
  } finally {
    await session.release();
  }
}
