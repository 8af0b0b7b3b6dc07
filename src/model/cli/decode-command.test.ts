import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli.ts';
import { entryToFloat32, parseSafetensors } from '../io/safetensors/read.ts';
import { writeSafetensors } from '../io/safetensors/write.ts';
import { relativeError } from '../io/tensor.ts';
import { crc32 } from '../models/vae/png.ts';
import { toByte } from '../models/vae/video-tensor.ts';
import { loadVaeCase, vaeCaseDir } from '../models/vae/test-fixtures.ts';
import { VAE_FLOAT16_ERROR } from '../models/vae/precision.ts';
import { parseVaeConfig } from '../models/vae/config.ts';
import { planVaeDecode } from '../models/vae/plan.ts';
import { SMALL_VAE_CONFIG } from '../models/vae/random-vae.ts';
import { writeVaeFolder } from '../models/vae/vae-folder.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'consisid-decode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; log: string }> {
  const lines: string[] = [];
  const code = await main(argv, (l) => lines.push(l));
  return { code, log: lines.join('\n') };
}

const tiny = vaeCaseDir('vae-tiny');
const latents = path.join(tiny, 'inputs.safetensors');

function readPng(file: string): { width: number; height: number; rgb: Uint8Array } {
  const b = new Uint8Array(readFileSync(file));
  expect([...b.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(b.buffer, b.byteOffset);
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  let o = 8;
  let idat = new Uint8Array();
  while (o < b.length) {
    const n = view.getUint32(o);
    const type = new TextDecoder().decode(b.subarray(o + 4, o + 8));
    expect(view.getUint32(o + 8 + n)).toBe(crc32(b.subarray(o + 4, o + 8 + n)));
    if (type === 'IDAT') idat = b.slice(o + 8, o + 8 + n);
    o += 12 + n;
  }
  const raw = inflateSync(idat);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (1 + width * 3)]).toBe(0);
    rgb.set(raw.subarray(y * (1 + width * 3) + 1, (y + 1) * (1 + width * 3)), y * width * 3);
  }
  return { width, height, rgb };
}

describe('consisid decode', () => {
  it('writes the reference sample, and each frame as a PNG mapped from [-1, 1] as the video processor does', async () => {
    const out = path.join(dir, 'sample.safetensors');
    const frames = path.join(dir, 'frames');
    const r = await cli('decode', '--vae', tiny, '--latents', latents, '--out', out, '--frames', frames);
    expect(r.code, r.log).toBe(0);
    const st = parseSafetensors(new Uint8Array(readFileSync(out)), out);
    const sample = st.tensors.get('sample')!;
    const c = loadVaeCase('vae-tiny');
    expect(sample.shape).toEqual([1, 3, 5, 12, 16]);
    const data = entryToFloat32(sample, out);
    expect(relativeError(data, c.expected.data)).toBeLessThanOrEqual(c.tolerance);
    expect(readdirSync(frames).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `frame-000${i}.png`));
    const png = readPng(path.join(frames, 'frame-0003.png'));
    expect([png.width, png.height]).toEqual([16, 12]);
    const px = (ch: number, y: number, x: number) => data[((ch * 5 + 3) * 12 + y) * 16 + x]!;
    for (const [y, x] of [
      [0, 0],
      [5, 7],
      [11, 15],
    ] as const)
      for (const ch of [0, 1, 2]) expect(png.rgb[(y * 16 + x) * 3 + ch]).toBe(toByte(px(ch, y, x)));
  });

  it('--weights float16 decodes in float16 (within VAE_FLOAT16_ERROR); another value is a usage error naming the flag', async () => {
    const out = path.join(dir, 'sample-f16.safetensors');
    let r = await cli('decode', '--vae', tiny, '--latents', latents, '--out', out, '--weights', 'float16');
    expect(r.code, r.log).toBe(0);
    const sample = parseSafetensors(new Uint8Array(readFileSync(out)), out).tensors.get('sample')!;
    const error = relativeError(entryToFloat32(sample, out), loadVaeCase('vae-tiny').expected.data);
    expect(error).toBeLessThanOrEqual(VAE_FLOAT16_ERROR);
    expect(error).toBeGreaterThan(1e-5);
    for (const [value, why] of [
      ['int8', /--weights must be one of float32, float16 for the VAE: int8 and int4 are the transformer's/],
      ['f16', /--weights must be one of float32, float16 for the VAE; got "f16"/],
    ] as const) {
      const never = path.join(dir, `never-${value}.safetensors`);
      r = await cli('decode', '--vae', tiny, '--latents', latents, '--out', never, '--weights', value);
      expect(r.code).toBe(2);
      expect(r.log).toMatch(why);
      expect(r.log).toMatch(/--weights float32\|float16/);
      expect(existsSync(never)).toBe(false);
    }
  });

  it('maps -1 to 0, 1 to 255, clamps beyond, and rounds half to even', () => {
    expect([toByte(-1), toByte(-2), toByte(1), toByte(3), toByte(0)]).toEqual([0, 0, 255, 255, 128]);
    expect(toByte((2 * 0.5) / 255 - 1)).toBe(0); // 0.5 rounds to 0
  });

  it('a wrong latent channel count names the channels, writes nothing', async () => {
    const bad = path.join(dir, 'bad-latents.safetensors');
    writeFileSync(
      bad,
      writeSafetensors({ latents: { dtype: 'float32', shape: [1, 3, 5, 6, 8], data: new Float32Array(720) } }),
    );
    const out = path.join(dir, 'never.safetensors');
    const r = await cli('decode', '--vae', tiny, '--latents', bad, '--out', out);
    expect(r.code).toBe(1);
    expect(r.log).toMatch(/latents: 5 channels in axis 2 .* latent_channels is 4/);
    expect(existsSync(out)).toBe(false);
  });

  it('a config it cannot read, and a folder without vae/, are clear errors', async () => {
    const broken = path.join(dir, 'broken');
    cpSync(tiny, broken, { recursive: true });
    writeFileSync(path.join(broken, 'config.json'), '{"block_out_channels": [8, 16], ');
    let r = await cli('decode', '--vae', broken, '--latents', latents, '--out', path.join(dir, 'x.safetensors'));
    expect(r.code).toBe(1);
    expect(r.log).toMatch(/broken\/config.json: not valid JSON/);
    writeFileSync(path.join(broken, 'config.json'), '{"block_out_channels": [8, 15], "norm_num_groups": 4}');
    r = await cli('decode', '--vae', broken, '--latents', latents, '--out', path.join(dir, 'x.safetensors'));
    expect(r.log).toMatch(/block_out_channels entry 15 is not a multiple of norm_num_groups 4/);
    const empty = path.join(dir, 'no-vae');
    mkdirSync(empty);
    r = await cli('decode', '--vae', empty, '--latents', latents, '--out', path.join(dir, 'x.safetensors'));
    expect(r.code).toBe(1);
    expect(r.log).toMatch(/missing vae\/: the folder has neither a config.json nor a vae\/ folder/);
  });

  it('generate --vae writes a random decoder into <out>/vae/ that decode reads from the checkpoint folder', async () => {
    const ck = path.join(dir, 'generated');
    let r = await cli('generate', '--config', 'tiny', '--vae', 'small', '--out', ck, '--seed', '3');
    expect(r.code, r.log).toBe(0);
    const cfg = JSON.parse(readFileSync(path.join(ck, 'vae', 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(cfg._class_name).toBe('AutoencoderKLCogVideoX');
    const z = path.join(dir, 'z16.safetensors');
    writeFileSync(
      z,
      writeSafetensors({
        latents: { dtype: 'float32', shape: [1, 1, 16, 2, 3], data: new Float32Array(96).fill(0.5) },
      }),
    );
    const out = path.join(dir, 'generated.safetensors');
    r = await cli('decode', '--vae', ck, '--latents', z, '--out', out);
    expect(r.code, r.log).toBe(0);
    expect(parseSafetensors(new Uint8Array(readFileSync(out)), out).tensors.get('sample')!.shape).toEqual([
      1, 3, 1, 4, 6,
    ]);
  });

  it('plans within --memory: tiles when the whole batch does not fit, and prints the figure; a bad --memory names the flag', async () => {
    const vae = path.join(dir, 'small-vae');
    await writeVaeFolder(vae, SMALL_VAE_CONFIG, { seed: 2 });
    const dims = [1, 3, 16, 12, 10];
    const z = path.join(dir, 'z-tiles.safetensors');
    const n = dims.reduce((a, b) => a * b, 1);
    const data = Float32Array.from({ length: n }, (_, i) => Math.sin(i));
    writeFileSync(z, writeSafetensors({ latents: { dtype: 'float32', shape: dims, data } }));
    const whole = planVaeDecode(parseVaeConfig(SMALL_VAE_CONFIG), dims).cpuProcessBytes;
    const out = path.join(dir, 'tiles.safetensors');
    let r = await cli('decode', '--vae', vae, '--latents', z, '--out', out, '--memory', String((whole - 1000) / 1e9));
    expect(r.code, r.log).toBe(0);
    expect(r.log).toMatch(
      /plan: \d+ tiles of up to \d+ x \d+ latents, process peak RSS about [\d.]+ GB of [\d.]+ GB \(--memory\)/,
    );
    expect(r.log).toMatch(/batch \d+\/\d+ \(tile 2\/\d+\)/);
    r = await cli('decode', '--vae', vae, '--latents', z, '--out', out, '--memory', String(whole / 1e9));
    expect(r.code, r.log).toBe(0);
    expect(r.log).toMatch(/plan: untiled, process peak RSS about/);
    r = await cli(
      'decode',
      '--vae',
      vae,
      '--latents',
      z,
      '--out',
      path.join(dir, 'never.safetensors'),
      '--memory',
      '0',
    );
    expect(r.code).toBe(2); // a usage error
    expect(r.log).toMatch(/--memory must be a positive number of gigabytes/);
    expect(existsSync(path.join(dir, 'never.safetensors'))).toBe(false);
  });
});
