// diffusers on torch CPU beside our decoder on onnxruntime-node CPU, in one run of `npm run bench -- vae`:
// the same generated VAE folder, the same latents, float32, the same thread count, runs alternating
// (ours, torch, ours, torch, ...) after one warm-up decode each (ours builds its graphs and sessions
// there), each batch of latent frames timed. Runs where a python with torch is found
// (VAE_BENCH_PYTHON, python3, /usr/bin/python3) and diffusers loads (installed, or DIFFUSERS_SRC
// naming a diffusers `src` folder); otherwise one figure says why.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { localSource } from '../src/model/io/local-source.ts';
import { entryToFloat32, parseSafetensors } from '../src/model/io/safetensors/read.ts';
import { writeSafetensors } from '../src/model/io/safetensors/write.ts';
import { relativeError } from '../src/model/io/tensor.ts';
import { VaeDecoder } from '../src/model/models/vae/decoder.ts';
import { loadVae } from '../src/model/models/vae/load.ts';
import { nodeBackend } from '../src/model/runtime/node.ts';
import { figure, median, type Figure } from './figure.ts';

const root = path.resolve(import.meta.dirname, '..');
const B = 'vae';

interface Decoded {
  batches: number[];
  decode: number;
}

export function torchPython(): string | null {
  const candidates = [process.env.VAE_BENCH_PYTHON, 'python3', '/usr/bin/python3'].filter((c): c is string => !!c);
  return candidates.find((py) => spawnSync(py, ['-c', 'import torch'], { stdio: 'ignore' }).status === 0) ?? null;
}

/** the python side: one process, one JSON line per request */
function startTorch(python: string, args: string[]) {
  const child = spawn(python, [path.join(root, 'bench/vae-torch.py'), ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async <T>(): Promise<T> => {
    const r = await lines.next();
    if (r.done) throw new Error(`bench/vae-torch.py ended: ${stderr.trim().split('\n').at(-1) ?? ''}`);
    return JSON.parse(r.value) as T;
  };
  return {
    ready: () => next<{ load: number; torch: string; diffusers: string; threads: number }>(),
    decode: () => (child.stdin.write('decode\n'), next<Decoded>()),
    stop: () => (child.stdin.end('quit\n'), child.kill()),
  };
}

/** the bench's latents (B, F, C, H, W): a fixed pattern, written where the python side reads them */
function latents(dims: number[], file: string): Float32Array {
  const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 0.7311) * 0.8;
  writeFileSync(file, writeSafetensors({ latents: { dtype: 'float32', shape: dims, data } }));
  return data;
}

const spread = (xs: number[]) => `${Math.min(...xs).toPrecision(3)}-${Math.max(...xs).toPrecision(3)}`;

export async function torchSideBySide(dir: string, dims: number[], threads: number, rounds: number): Promise<Figure[]> {
  const python = torchPython();
  const label = 'torch side by side';
  if (!python) return [figure(B, label, 'not run: no python3 with torch (VAE_BENCH_PYTHON)', '')];
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'hub-console-vae-torch-'));
  const data = latents(dims, path.join(tmp, 'latents.safetensors'));
  const torch = startTorch(python, [
    '--vae',
    dir,
    '--latents',
    path.join(tmp, 'latents.safetensors'),
    '--threads',
    String(threads),
    '--out',
    path.join(tmp, 'sample.safetensors'),
  ]);
  const ours = new VaeDecoder(await loadVae(localSource(dir)), {
    backend: nodeBackend(),
    device: 'cpu',
    threads,
    keepSessions: true,
  });
  const decodeOurs = async (): Promise<Decoded & { sample: Float32Array }> => {
    const batches: number[] = [];
    const t0 = performance.now();
    let last = t0;
    const out = await ours.decode(
      { data, dims },
      {
        onBatch: () => {
          const now = performance.now();
          batches.push((now - last) / 1000);
          last = now;
        },
      },
    );
    return { batches, decode: (performance.now() - t0) / 1000, sample: out.data };
  };
  try {
    const info = await torch.ready().catch((e: Error) => e);
    if (info instanceof Error) return [figure(B, label, `not run: ${info.message}`, '')];
    const warmOurs = await decodeOurs();
    const warmTorch = await torch.decode();
    const st = parseSafetensors(new Uint8Array(readFileSync(path.join(tmp, 'sample.safetensors'))), 'torch sample');
    const agreement = relativeError(warmOurs.sample, entryToFloat32(st.tensors.get('sample')!, 'torch sample'));
    const runs: { ours: Decoded; torch: Decoded }[] = [];
    for (let r = 0; r < rounds; r++) runs.push({ ours: await decodeOurs(), torch: await torch.decode() });
    const what = `latents ${dims.join('x')}, float32, ${threads} threads, ${rounds} alternating runs after a warm-up`;
    const out: Figure[] = [
      figure(B, `${label}: torch ${info.torch}, ${info.diffusers}`, what, ''),
      figure(B, `${label}: max |ours - torch| / max |torch|`, agreement, ''),
      figure(
        B,
        `${label}: warm-up decode, ours (graphs + sessions) / torch`,
        `${warmOurs.decode.toPrecision(3)} / ${warmTorch.decode.toPrecision(3)}`,
        's',
      ),
    ];
    const rows = [
      ...runs[0]!.ours.batches.map((_, k) => ({ name: `batch ${k + 1}`, pick: (d: Decoded) => d.batches[k]! })),
      { name: 'decode', pick: (d: Decoded) => d.decode },
    ];
    for (const { name, pick } of rows) {
      const o = runs.map((r) => pick(r.ours));
      const t = runs.map((r) => pick(r.torch));
      const ratio = runs.map((r) => pick(r.ours) / pick(r.torch));
      out.push(
        figure(B, `${label}: ${name}, ours (median)`, median(o), 's'),
        figure(B, `${label}: ${name}, torch (median)`, median(t), 's'),
        figure(B, `${label}: ${name}, ours / torch (median of the runs' ratios)`, median(ratio), ''),
        figure(
          B,
          `${label}: ${name}, spread (ours s; torch s; ratio)`,
          `${spread(o)}; ${spread(t)}; ${spread(ratio)}`,
          '',
        ),
      );
    }
    return out;
  } finally {
    torch.stop();
    await ours.release();
    rmSync(tmp, { recursive: true, force: true });
  }
}
