// The VAE decode on onnxruntime-node's own WebGPU EP (built into its linux-x64 library), for a machine
// with a GPU: generates a decoder of random weights (the released size by default) into a folder,
// decodes seeded latents batch by batch as the pipeline does, and prints one JSON line per figure.
//   node vae-gpu-child.mjs --latents 13x30x44 [--config released|small] [--out dir] [--cpu-check 2x8x12]
//   node vae-gpu-child.mjs --golden fixtures/cogvideox-vae/vae-tiny   (a golden case on WebGPU, then exit)
// `--cpu-check` also decodes a small latent on the CPU EP and on WebGPU and reports their max relative error.
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { parseCommandLine } from '../src/cli/command-line.ts';
import { localSource } from '../src/model/io/local-source.ts';
import { entryToFloat32, parseSafetensors } from '../src/model/io/safetensors/read.ts';
import { relativeError } from '../src/model/io/tensor.ts';
import { parseVaeConfig } from '../src/model/models/vae/config.ts';
import { VaeDecoder } from '../src/model/models/vae/decoder.ts';
import { loadVae } from '../src/model/models/vae/load.ts';
import { planVaeDecode } from '../src/model/models/vae/plan.ts';
import { readVaeConfigArg, writeVaeFolder } from '../src/model/models/vae/vae-folder.ts';
import { nodeBackend, nodeSessionInput } from '../src/model/runtime/node.ts';
import { wrapSession } from '../src/model/runtime/ort-session.ts';
import type { InferenceBackend } from '../src/model/runtime/types.ts';

const { values } = parseCommandLine(process.argv.slice(2), {
  latents: { type: 'string' },
  config: { type: 'string' },
  out: { type: 'string' },
  'cpu-check': { type: 'string' },
  golden: { type: 'string' },
});
const emit = (metric: string, value: unknown, unit = '') =>
  console.log(JSON.stringify({ bench: 'vae-gpu', metric, value, unit }));

/** onnxruntime-node with its WebGPU EP: the node backend's sessions, on the GPU */
const webgpuBackend: InferenceBackend = {
  devices: ['webgpu'],
  async createSession(model) {
    const input = await nodeSessionInput(model);
    const session = await ort.InferenceSession.create(input.model, {
      executionProviders: ['webgpu'],
      graphOptimizationLevel: 'all',
      ...(input.externalData?.length ? { externalData: input.externalData } : {}),
      ...(input.folder ? { extra: { session: { model_external_initializers_file_folder_path: input.folder } } } : {}),
    });
    return wrapSession(session, (t) => new ort.Tensor('float32', t.data, [...t.dims]));
  },
};

const latents = (dims: number[]) => {
  const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 0.7311) * 0.8;
  return { data, dims };
};

async function decode(decoder: VaeDecoder, dims: number[], label: string) {
  const batches: number[] = [];
  let last = performance.now();
  const t0 = last;
  const out = await decoder.decode(latents(dims), {
    onBatch: () => {
      const now = performance.now();
      batches.push((now - last) / 1000);
      last = now;
    },
  });
  emit(`${label} decode`, (performance.now() - t0) / 1000, 's');
  emit(
    `${label} batches`,
    batches.map((b) => Number(b.toFixed(3))),
    's',
  );
  emit(`${label} output`, out.dims);
  return out;
}

if (values.golden) {
  const dir = values.golden;
  const tensor = (file: string, name: string) => {
    const where = path.join(dir, file);
    const e = parseSafetensors(new Uint8Array(readFileSync(where)), where).tensors.get(name)!;
    return { data: entryToFloat32(e, where), dims: [...e.shape] };
  };
  const decoder = new VaeDecoder(await loadVae(localSource(dir)), { backend: webgpuBackend, device: 'webgpu' });
  const meta = JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as { tiling?: unknown };
  const out = await decoder.decode(tensor('inputs.safetensors', 'latents'), { tile: meta.tiling ? 'auto' : false });
  const expected = tensor('expected.safetensors', 'sample');
  emit(`golden ${path.basename(dir)} webgpu max rel error`, relativeError(out.data, expected.data));
  await decoder.release();
  process.exit(0);
}
const { raw, label } = await readVaeConfigArg(values.config ?? 'released');
const config = parseVaeConfig(raw);
const dir = values.out ?? (await mkdtemp(path.join(os.tmpdir(), 'vae-gpu-')));
const t = performance.now();
const bytes = await writeVaeFolder(dir, raw, { seed: 1 });
emit(
  `${label} decoder generated`,
  `${(bytes / 2 ** 20).toFixed(1)} MiB in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);
const checkpoint = await loadVae(localSource(dir));
const gpu = new VaeDecoder(checkpoint, { backend: webgpuBackend, device: 'webgpu' });
if (values['cpu-check']) {
  const small = [1, ...values['cpu-check'].split('x').map(Number)];
  small.splice(2, 0, config.latent_channels);
  const cpu = new VaeDecoder(checkpoint, { backend: nodeBackend(), device: 'cpu' });
  const a = await decode(gpu, small, `webgpu ${small.join('x')}`);
  const b = await decode(cpu, small, `cpu ${small.join('x')}`);
  emit(`webgpu vs cpu max rel error ${small.join('x')}`, relativeError(a.data, b.data));
  await cpu.release();
  await gpu.release();
}
const [frames, height, width] = (values.latents ?? '13x30x44').split('x').map(Number) as [number, number, number];
const dims = [1, frames, config.latent_channels, height, width];
const plan = planVaeDecode(config, dims, { tile: false });
emit(`${label} plan`, JSON.stringify(plan).slice(0, 400));
const decoder = new VaeDecoder(checkpoint, { backend: webgpuBackend, device: 'webgpu' });
await decode(decoder, dims, `webgpu ${dims.join('x')}`);
emit('peak RSS', process.resourceUsage().maxRSS / 1024, 'MiB');
await decoder.release();
