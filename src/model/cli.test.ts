import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './cli.ts';
import { fixtureDir, loadFixture, readNamedTensors, relativeError } from './test-support/fixtures.ts';
import { runOnnxFile } from './runtime/node.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'consisid-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; log: string }> {
  const lines: string[] = [];
  const code = await main(argv, (l) => lines.push(l));
  return { code, log: lines.join('\n') };
}

describe('consisid CLI', () => {
  it('forward round trip: fixture inputs -> sample within tolerance', async () => {
    const out = path.join(dir, 'out.safetensors');
    const r = await cli(
      'forward',
      '--model',
      fixtureDir('tiny-face'),
      '--inputs',
      path.join(fixtureDir('tiny-face'), 'inputs.safetensors'),
      '--out',
      out,
    );
    expect(r.code, r.log).toBe(0);
    const f = loadFixture('tiny-face');
    const sample = readNamedTensors(out).get('sample')!;
    expect(sample.shape).toEqual(f.expectedShape);
    expect(relativeError(sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(1e-4);
  });

  it('export writes a standalone model (external data) that onnxruntime runs from disk', async () => {
    const onnx = path.join(dir, 'rope.onnx');
    const r = await cli(
      'export',
      '--model',
      fixtureDir('tiny-rope'),
      '--out',
      onnx,
      '--shape',
      'batch=1,frames=3,height=8,width=12,text=5',
      '--external-data',
    );
    expect(r.code, r.log).toBe(0);
    expect(readFileSync(`${onnx}.data`).length).toBeGreaterThan(100_000);
    expect(readFileSync(onnx).length).toBeLessThan(100_000);
    const f = loadFixture('tiny-rope');
    const feeds = Object.fromEntries(
      [...f.inputs].map(([k, t]) => [k, { data: Float32Array.from(t.data as Float32Array, Number), dims: t.shape }]),
    );
    feeds.timestep = { data: Float32Array.from(f.inputs.get('timestep')!.data as BigInt64Array, Number), dims: [1] };
    const out = await runOnnxFile(onnx, feeds);
    expect(relativeError(out.sample!.data, f.expected)).toBeLessThanOrEqual(1e-4);
  });

  it('forward --repeat runs one session N times (setup printed once); --weights int8 --compare float32 prints the error it measured', async () => {
    const out = path.join(dir, 'int8.safetensors');
    const inputs = path.join(fixtureDir('tiny-rope'), 'inputs.safetensors');
    const r = await cli(
      'forward',
      '--model',
      fixtureDir('tiny-rope'),
      '--inputs',
      inputs,
      '--out',
      out,
      '--repeat',
      '2',
      '--weights',
      'int8',
      '--compare',
      'float32',
    );
    expect(r.code, r.log).toBe(0);
    const runs = r.log.split('\n').filter((l) => l.startsWith('forward '));
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatch(
      /^forward 1\/2 on cpu, int8 weights: \d+ ms \(weights \d+ ms, graph \d+ ms, session \d+ ms\)/,
    );
    expect(runs[1]).toMatch(/^forward 2\/2 on cpu, int8 weights: \d+ ms, sample/);
    const printed = Number(/max relative error vs float32: (\S+)/.exec(r.log)?.[1]);
    const f = loadFixture('tiny-rope');
    const sample = readNamedTensors(out).get('sample')!.data as Float32Array;
    // against float32, which is within 2e-7 of the reference
    expect(Math.abs(printed - relativeError(sample, f.expected)) / printed).toBeLessThan(1e-2);
    expect(printed).toBeGreaterThan(1e-4);
    const bad = await cli(
      'forward',
      '--model',
      fixtureDir('tiny-rope'),
      '--inputs',
      inputs,
      '--out',
      out,
      '--weights',
      'int3',
    );
    expect(bad.code).toBe(2);
    expect(bad.log).toMatch(/--weights must be one of float32, float16, int8, int4, got int3/);
  });

  it('generate writes a loadable sharded checkpoint and inputs for it; export --weights int4 writes the quantized graph', async () => {
    const ck = path.join(dir, 'gen');
    const inputs = path.join(dir, 'gen-inputs.safetensors');
    const g = await cli(
      'generate',
      '--config',
      'demo-preview-s',
      '--out',
      ck,
      '--dtype',
      'bfloat16',
      '--shards',
      '2',
      '--inputs',
      inputs,
      '--shape',
      'frames=2,height=8,width=8,text=6,vit=5',
    );
    expect(g.code, g.log).toBe(0);
    const f32 = path.join(dir, 'gen-f32.safetensors');
    expect((await cli('forward', '--model', ck, '--inputs', inputs, '--out', f32)).code).toBe(0);
    expect(readNamedTensors(f32).get('sample')!.shape).toEqual([1, 2, 4, 8, 8]);
    const onnx = path.join(dir, 'gen-int4.onnx');
    const e = await cli(
      'export',
      '--model',
      ck,
      '--out',
      onnx,
      '--weights',
      'int4',
      '--shape',
      'frames=2,height=8,width=8,text=6,vit=5',
      '--external-data',
    );
    expect(e.code, e.log).toBe(0);
    expect(e.log).toMatch(/int4 weights/);
    const feeds = Object.fromEntries(
      [...readNamedTensors(inputs)].map(([k, t]) => [
        k,
        { data: Float32Array.from(t.data as Float32Array, Number), dims: t.shape },
      ]),
    );
    feeds.timestep = {
      data: Float32Array.from(readNamedTensors(inputs).get('timestep')!.data as BigInt64Array, Number),
      dims: [1],
    };
    const out = await runOnnxFile(onnx, feeds);
    expect(relativeError(out.sample!.data, readNamedTensors(f32).get('sample')!.data as Float32Array)).toBeLessThan(
      4e-2,
    );
    const unknown = await cli('generate', '--config', 'nope', '--out', ck);
    expect(unknown.code).toBe(2);
    expect(unknown.log).toMatch(/neither a config name \(tiny, demo-preview-s, preview-s, consisid\)/);
  });

  it('usage and input errors exit non-zero with a message', async () => {
    expect((await cli('frobnicate')).code).toBe(2);
    const missing = await cli('forward', '--model', fixtureDir('tiny-base'));
    expect(missing.code).toBe(2);
    expect(missing.log).toMatch(/--inputs is required/);
    const bad = await cli(
      'forward',
      '--model',
      fixtureDir('tiny-face'),
      '--inputs',
      path.join(fixtureDir('tiny-base'), 'inputs.safetensors'),
      '--out',
      path.join(dir, 'x.safetensors'),
    );
    expect(bad.code).toBe(1);
    expect(bad.log).toMatch(/encoder_hidden_states|id_cond/);
  });
});
