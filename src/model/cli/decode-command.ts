// `consisid decode`: latents (B, F, C, H, W) from a safetensors file through a checkpoint's VAE
// decoder, as the ConsisID pipeline decodes them; writes `sample` (B, 3, frames, 8H, 8W) float32,
// and with --frames every frame as a PNG.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import path from 'node:path';
import { UsageError, type Command, type Flags } from './flags.ts';
import { positiveInt } from './model-options.ts';
import { checkOutputFile, checkOutputFolder, writeInPlace } from './output-files.ts';
import { DEFAULT_HUB_URL, hubSource } from '../io/hub-files.ts';
import { localSource } from '../io/local-source.ts';
import type { FileSource } from '../io/file-source.ts';
import { nodeBackend } from '../runtime/node.ts';
import { entryToFloat32, parseSafetensors } from '../io/safetensors/read.ts';
import { writeSafetensors } from '../io/safetensors/write.ts';
import { VaeDecoder, checkLatents } from '../models/vae/decoder.ts';
import { memoryBudget, planDecodeRun } from './decode-plan.ts';
import { loadVae, VaeLoadError } from '../models/vae/load.ts';
import { encodePng, frameRgb } from '../models/vae/png.ts';
import { VAE_PRECISIONS, checkVaePrecision } from '../models/vae/precision.ts';
import type { Tensor5 } from '../models/vae/video-tensor.ts';

const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
const isFile = (p: string) => statSync(p, { throwIfNoEntry: false })?.isFile() === true;

/** a VAE folder, a checkpoint folder holding vae/, or a hub repository id (owner/name, owner/name/vae) */
export function vaeSource(arg: string, flags: Flags): FileSource {
  const hubUrl = flags.get('hub-url');
  if (!hubUrl && isDir(arg)) {
    if (isDir(path.join(arg, 'vae'))) return localSource(path.join(arg, 'vae'));
    if (isFile(path.join(arg, 'config.json'))) return localSource(arg);
    throw new VaeLoadError(`--vae ${arg}: missing vae/: the folder has neither a config.json nor a vae/ folder`);
  }
  const m = /^([\w.-]+\/[\w.-]+)(?:\/(.+))?$/.exec(arg);
  if (!m) throw new UsageError(`--vae ${arg}: no such folder, and not a repository id (owner/name or owner/name/vae)`);
  return hubSource({
    repoId: m[1]!,
    subfolder: m[2] ?? 'vae',
    hubUrl: hubUrl ?? DEFAULT_HUB_URL,
    revision: flags.get('revision'),
    token: flags.get('token') ?? process.env.HUB_TOKEN,
  });
}

async function readLatents(file: string): Promise<Tensor5> {
  const bytes = new Uint8Array(await readFile(file));
  const st = parseSafetensors(bytes, file);
  const e = st.tensors.get('latents');
  if (!e)
    throw new UsageError(
      `--latents ${file}: no tensor "latents" (it holds ${[...st.tensors.keys()].join(', ') || 'none'})`,
    );
  return { data: entryToFloat32(e, file), dims: e.shape as unknown as Tensor5['dims'] };
}

export const decodeCommand: Command = {
  name: 'decode',
  summary: "Decodes latents (B, F, C, H, W) with a checkpoint's VAE, as the ConsisID pipeline does, into video frames.",
  flags: {
    vae: {
      value: '<dir | repo id[/vae]>',
      required: true,
      help: 'a VAE folder, a checkpoint folder with vae/, or a hub repository (its vae/ unless a subfolder is named)',
    },
    latents: {
      value: '<in.safetensors>',
      required: true,
      help: 'a file with `latents` (batch, frames, channels, height, width)',
    },
    out: {
      value: '<out.safetensors>',
      required: true,
      help: 'where `sample` (batch, 3, frames, pixel height, pixel width) float32 goes',
    },
    frames: { value: '<dir>', help: 'also write every frame as a PNG into this new or empty folder' },
    tile: {
      help: "decode in diffusers' tiles (its default tile size); without it, in tiles only when --memory needs them",
    },
    weights: {
      value: VAE_PRECISIONS.join('|'),
      help: 'the weights and compute precision (default float32; float16 halves the weights, its error in docs/vae.md)',
    },
    memory: {
      value: '<GB>',
      help: 'the memory the decode may take, in GB (default: the free memory); the plan tiles the decode to fit it',
    },
    device: { value: 'cpu|wasm', help: 'the onnxruntime provider (default cpu)' },
    threads: { value: 'n', help: "onnxruntime's intra-op threads (default: its own choice)" },
    revision: { value: '<rev>', help: 'the repository revision (default main)' },
    'hub-url': { value: '<URL>', help: `the hub to read the repository from (default ${DEFAULT_HUB_URL})` },
    token: { value: '<T>', help: 'a hub token for private repositories (default $HUB_TOKEN)' },
  },
  notes: [
    'Frames: 1 + 4 (F - 1) of an odd F (49 of 13), in latent batches of 2 (the remainder in the first).',
    "Without --tile: untiled when the plan's process peak fits --memory, else the lined-up tiles that do.",
  ],
  run: decode,
};

/** --weights, or a usage error naming the flag and the VAE's precisions */
function vaeWeights(value: string) {
  try {
    return checkVaePrecision(value);
  } catch (e) {
    throw new UsageError(`--${(e as Error).message}`);
  }
}

async function decode(flags: Flags, log: (line: string) => void): Promise<void> {
  const device = flags.get('device') ?? 'cpu';
  if (device !== 'cpu' && device !== 'wasm') throw new UsageError(`--device must be cpu or wasm, got ${device}`);
  const threads = positiveInt(flags, 'threads');
  const weights = vaeWeights(flags.get('weights') ?? 'float32');
  const memory = memoryBudget(flags);
  const out = flags.need('out');
  const framesDir = flags.get('frames');
  checkOutputFile('out', out);
  if (framesDir) await checkOutputFolder('frames', framesDir);
  const latents = await readLatents(flags.need('latents'));
  const source = vaeSource(flags.need('vae'), flags);
  const checkpoint = await loadVae(source);
  checkLatents(checkpoint.config, latents.dims);
  const run = planDecodeRun(checkpoint.config, latents.dims, device, memory, flags.has('tile'), weights);
  log(run.line);
  const decoder = new VaeDecoder(checkpoint, {
    backend: nodeBackend(),
    device,
    weights,
    maxSessions: run.maxSessions,
    ...(threads ? { threads } : {}),
  });
  const t0 = performance.now();
  try {
    const sample = await decoder.decode(latents, {
      ...run.decode,
      onBatch: (p) =>
        log(
          `  batch ${p.done + 1}/${p.total}${p.tiles > 1 ? ` (tile ${p.tile + 1}/${p.tiles})` : ''}: ${((performance.now() - t0) / 1000).toFixed(1)} s`,
        ),
    });
    await writeInPlace([out], ([tmp]) =>
      writeFile(
        tmp!,
        writeSafetensors(
          { sample: { dtype: 'float32', shape: [...sample.dims], data: sample.data } },
          { format: 'pt' },
        ),
      ),
    );
    log(`wrote ${out}: sample (${sample.dims.join(', ')})`);
    if (framesDir) {
      await writeInPlace([framesDir], async ([tmp]) => {
        await mkdir(tmp!);
        const [b, , t, h, w] = sample.dims;
        for (let v = 0; v < b; v++)
          for (let f = 0; f < t; f++) {
            const name = `${b > 1 ? `video-${v}-` : ''}frame-${String(f).padStart(4, '0')}.png`;
            await writeFile(path.join(tmp!, name), encodePng(frameRgb(sample, v, f), w, h));
          }
      });
      log(`wrote ${framesDir}: ${sample.dims[0] * sample.dims[2]} PNG frames`);
    }
  } finally {
    await decoder.release();
  }
}
