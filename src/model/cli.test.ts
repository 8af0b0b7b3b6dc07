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
    const r = await cli('forward', '--model', fixtureDir('tiny-face'), '--inputs', path.join(fixtureDir('tiny-face'), 'inputs.safetensors'), '--out', out);
    expect(r.code, r.log).toBe(0);
    const f = loadFixture('tiny-face');
    const sample = readNamedTensors(out).get('sample')!;
    expect(sample.shape).toEqual(f.expectedShape);
    expect(relativeError(sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(1e-4);
  });

  it('export writes a standalone model (external data) that onnxruntime runs from disk', async () => {
    const onnx = path.join(dir, 'rope.onnx');
    const r = await cli('export', '--model', fixtureDir('tiny-rope'), '--out', onnx, '--shape', 'batch=1,frames=3,height=8,width=12,text=5', '--external-data');
    expect(r.code, r.log).toBe(0);
    expect(readFileSync(`${onnx}.data`).length).toBeGreaterThan(100_000);
    expect(readFileSync(onnx).length).toBeLessThan(100_000);
    const f = loadFixture('tiny-rope');
    const feeds = Object.fromEntries([...f.inputs].map(([k, t]) => [k, { data: Float32Array.from(t.data as Float32Array, Number), dims: t.shape }]));
    feeds.timestep = { data: Float32Array.from(f.inputs.get('timestep')!.data as BigInt64Array, Number), dims: [1] };
    const out = await runOnnxFile(onnx, feeds);
    expect(relativeError(out.sample!.data, f.expected)).toBeLessThanOrEqual(1e-4);
  });

  it('usage and input errors exit non-zero with a message', async () => {
    expect((await cli('frobnicate')).code).toBe(2);
    const missing = await cli('forward', '--model', fixtureDir('tiny-base'));
    expect(missing.code).toBe(2);
    expect(missing.log).toMatch(/--inputs is required/);
    const bad = await cli('forward', '--model', fixtureDir('tiny-face'), '--inputs', path.join(fixtureDir('tiny-base'), 'inputs.safetensors'), '--out', path.join(dir, 'x.safetensors'));
    expect(bad.code).toBe(1);
    expect(bad.log).toMatch(/encoder_hidden_states|id_cond/);
  });
});
