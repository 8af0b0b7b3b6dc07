// What a user gets for bad command lines: one line naming the flag, a non-zero exit, and no
// output file (nor a half-written one).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli.ts';
import { fixtureDir } from '../test-support/fixtures.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'consisid-bad-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const model = fixtureDir('tiny-base');
const inputs = path.join(model, 'inputs.safetensors');

/** exit code, and the first line of what was printed (the error; the usage follows a usage error) */
async function cli(...argv: string[]): Promise<{ code: number; first: string; log: string }> {
  const lines: string[] = [];
  const code = await main(argv, (l) => lines.push(...l.split('\n')));
  return {
    code,
    first: lines.find((l) => !l.startsWith('loading') && !l.startsWith('  ')) ?? '',
    log: lines.join('\n'),
  };
}

describe('consisid forward: contradictory or bad flags', () => {
  it('--compare naming the precision that runs is refused before anything loads', async () => {
    const out = path.join(dir, 'cmp.safetensors');
    for (const extra of [
      [],
      ['--weights', 'float32'],
      ['--weights', 'int8', '--compare', 'int8'],
      ['--dtype', 'float16', '--compare', 'float16'],
    ]) {
      const argv = extra.includes('--compare') ? extra : [...extra, '--compare', 'float32'];
      const r = await cli('forward', '--model', model, '--inputs', inputs, '--out', out, ...argv);
      expect(r.code, r.log).toBe(2);
      expect(r.first).toMatch(/^--compare (float32|int8|float16) is the precision this run uses/);
      expect(r.log).not.toMatch(/^loading/m);
    }
    expect(existsSync(out)).toBe(false);
    // float16 compute (--dtype) against the float32 path is a real comparison
    const ok = await cli(
      'forward',
      '--model',
      model,
      '--inputs',
      inputs,
      '--out',
      out,
      '--dtype',
      'float16',
      '--compare',
      'float32',
    );
    expect(ok.code, ok.log).toBe(0);
    expect(ok.log).toMatch(/max relative error vs float32: [1-9]/);
  });

  it('--weights and --dtype that contradict each other are a usage error naming both', async () => {
    for (const [w, d] of [
      ['int8', 'float16'],
      ['int4', 'float16'],
      ['float16', 'float32'],
    ] as const) {
      const r = await cli(
        'forward',
        '--model',
        model,
        '--inputs',
        inputs,
        '--out',
        path.join(dir, 'wd.safetensors'),
        '--weights',
        w,
        '--dtype',
        d,
      );
      expect(r.code, r.log).toBe(2);
      expect(r.first).toContain(`--weights ${w}`);
      expect(r.first).toContain(`--dtype ${d}`);
    }
  });

  it('an --out in a folder that does not exist, or that is a folder, fails before the forward runs', async () => {
    const r = await cli(
      'forward',
      '--model',
      model,
      '--inputs',
      inputs,
      '--out',
      path.join(dir, 'no-such-dir', 'o.safetensors'),
    );
    expect(r.code).toBe(2);
    expect(r.first).toMatch(/^--out .*o\.safetensors: the folder .*no-such-dir does not exist$/);
    expect(r.log).not.toMatch(/^forward /m);
    const d = await cli('forward', '--model', model, '--inputs', inputs, '--out', dir);
    expect(d.code).toBe(2);
    expect(d.first).toMatch(/^--out .*: is a folder/);
  });

  it('a missing or unreadable --inputs file names the flag', async () => {
    const r = await cli(
      'forward',
      '--model',
      model,
      '--inputs',
      path.join(dir, 'missing.safetensors'),
      '--out',
      path.join(dir, 'x.safetensors'),
    );
    expect(r.code).not.toBe(0);
    expect(r.first).toMatch(/^--inputs .*missing\.safetensors: no such file$/);
  });

  it('a --model that is neither a folder nor a repository id says both', async () => {
    const missing = path.join(dir, 'no-checkpoint-here');
    for (const cmd of ['forward', 'export', 'plan']) {
      const argv =
        cmd === 'forward'
          ? ['--inputs', inputs, '--out', path.join(dir, 'm.safetensors')]
          : cmd === 'export'
            ? ['--out', path.join(dir, 'm.onnx')]
            : [];
      const r = await cli(cmd, '--model', missing, ...argv);
      expect(r.code, `${cmd}: ${r.log}`).toBe(2);
      expect(r.first).toBe(`--model ${missing}: no such folder, and not a repository id (owner/name)`);
    }
    const sub = await cli(
      'forward',
      '--model',
      model,
      '--subfolder',
      'transformer',
      '--inputs',
      inputs,
      '--out',
      path.join(dir, 'm.safetensors'),
    );
    expect(sub.code).toBe(2);
    expect(sub.first).toBe(`--subfolder transformer: ${path.join(model, 'transformer')} is not a folder`);
  });

  it('a --hub-url that is not an http(s) URL is a usage error', async () => {
    const r = await cli(
      'forward',
      '--model',
      'a/b',
      '--hub-url',
      'localhost:4701',
      '--inputs',
      inputs,
      '--out',
      path.join(dir, 'h.safetensors'),
    );
    expect(r.code).toBe(2);
    expect(r.first).toBe('--hub-url must be an http:// or https:// URL, got localhost:4701');
  });
});

describe('consisid export and plan: flags they do not use are refused', () => {
  it('export --external-data --no-external-data contradict each other', async () => {
    const out = path.join(dir, 'both.onnx');
    const r = await cli('export', '--model', model, '--out', out, '--external-data', '--no-external-data');
    expect(r.code).toBe(2);
    expect(r.first).toBe('--external-data and --no-external-data contradict each other: give one');
    expect(existsSync(out)).toBe(false);
  });

  it('export takes no --threads; plan takes no --weights, --device, --dtype or --threads (it prints every precision)', async () => {
    expect((await cli('export', '--model', model, '--out', path.join(dir, 't.onnx'), '--threads', '2')).first).toBe(
      'unknown option --threads',
    );
    for (const [flag, v] of [
      ['weights', 'int8'],
      ['device', 'wasm'],
      ['dtype', 'float16'],
      ['threads', '2'],
    ]) {
      const r = await cli('plan', '--model', 'tiny', `--${flag}`, v!);
      expect(r.code).toBe(2);
      expect(r.first).toMatch(new RegExp(`^unknown option --${flag}`));
    }
  });

  it('export leaves no model.onnx behind when its weights file cannot be written', async () => {
    const out = path.join(dir, 'blocked.onnx');
    mkdirSync(`${out}.data`);
    const r = await cli('export', '--model', model, '--out', out, '--external-data');
    expect(r.code).not.toBe(0);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('blocked.onnx') && f !== 'blocked.onnx.data')).toEqual([]);
  });
});

describe('consisid generate: nothing half-written', () => {
  it('refuses a folder that is not empty (an older checkpoint would mix with the new one)', async () => {
    const out = path.join(dir, 'old');
    mkdirSync(out);
    writeFileSync(path.join(out, 'diffusion_pytorch_model.safetensors.index.json'), '{}');
    const r = await cli('generate', '--config', 'tiny', '--out', out);
    expect(r.code).toBe(2);
    expect(r.first).toBe(`--out ${out}: the folder is not empty; name a new or an empty one`);
    expect(readdirSync(out)).toEqual(['diffusion_pytorch_model.safetensors.index.json']);
  });

  it('checks --shape and --inputs before it writes the checkpoint; --shape needs --inputs', async () => {
    const out = path.join(dir, 'gen-bad');
    const bad = await cli(
      'generate',
      '--config',
      'tiny',
      '--out',
      out,
      '--inputs',
      path.join(dir, 'in.safetensors'),
      '--shape',
      'height=7',
    );
    expect(bad.code).toBe(2);
    expect(bad.first).toMatch(/^--shape: height/);
    const noDir = await cli(
      'generate',
      '--config',
      'tiny',
      '--out',
      out,
      '--inputs',
      path.join(dir, 'nowhere', 'in.safetensors'),
    );
    expect(noDir.code).toBe(2);
    expect(noDir.first).toMatch(/^--inputs .*: the folder .*nowhere does not exist$/);
    const lone = await cli('generate', '--config', 'tiny', '--out', out, '--shape', 'frames=2');
    expect(lone.code).toBe(2);
    expect(lone.first).toBe('--shape describes the inputs: give --inputs too');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('gen-bad'))).toEqual([]);
  });

  it('an unknown --family is refused naming the kinds; a known one is the checkpoint written', async () => {
    const out = path.join(dir, 'gen-family');
    const bad = await cli('generate', '--config', 'tiny', '--out', out, '--family', 'trained');
    expect(bad.code).toBe(2);
    expect(bad.first).toBe('--family must be one of uniform, heavy, outliers, got trained');
    expect(existsSync(out)).toBe(false);
    const ok = await cli('generate', '--config', 'tiny', '--out', out, '--family', 'heavy');
    expect(ok.code, ok.log).toBe(0);
    expect(ok.log).toMatch(/of float32 weights \(heavy\)/);
  });

  it('--shards beyond the number of weight tensors is refused (it would write empty shards)', async () => {
    const out = path.join(dir, 'gen-shards');
    const r = await cli('generate', '--config', 'tiny', '--out', out, '--shards', '100000');
    expect(r.code).toBe(2);
    expect(r.first).toMatch(/^--shards must be at most \d+ \(the config's weight tensors\), got 100000$/);
    expect(existsSync(out)).toBe(false);
    const ok = await cli('generate', '--config', 'tiny', '--out', out, '--shards', '3');
    expect(ok.code, ok.log).toBe(0);
    expect(readdirSync(out).sort()).toEqual([
      'config.json',
      'diffusion_pytorch_model-00001-of-00003.safetensors',
      'diffusion_pytorch_model-00002-of-00003.safetensors',
      'diffusion_pytorch_model-00003-of-00003.safetensors',
      'diffusion_pytorch_model.safetensors.index.json',
    ]);
  });
});
