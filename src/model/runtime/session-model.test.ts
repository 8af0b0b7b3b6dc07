import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../models/consisid/load-checkpoint.ts';
import { localSource } from '../io/local-source.ts';
import { ConsisIDTransformer3DModel } from '../models/consisid/consisid-model.ts';
import { nodeBackend, nodeSessionInput } from './node.ts';
import { buildConsisIDGraph } from '../graph/transformer.ts';
import { prepareForward } from '../models/consisid/forward-inputs.ts';
import { sessionModel } from './session-model.ts';
import type { CheckpointFile } from '../io/checkpoint-file.ts';
import type { ComputedGroup, ModelDef, TensorDef } from '../onnx/onnx-proto.ts';
import { fixtureDir, loadFixture, relativeError } from '../test-support/fixtures.ts';
import { countingSource } from '../test-support/counting-source.ts';

describe('weights flow from the checkpoint files to the session', () => {
  it('a local checkpoint is read up to its headers; the session model names its files for onnxruntime to map', async () => {
    const dir = fixtureDir('tiny-face');
    const ck = await loadCheckpoint(localSource(dir));
    expect([...ck.weights.values()].every((w) => w.bytes === undefined)).toBe(true);
    const f = loadFixture('tiny-face');
    const m = await sessionModel(
      buildConsisIDGraph(ck.config, ck.weights, prepareForward(ck.config, f.args).shape).model,
      ck.files,
    );
    expect(
      [...m.externalData.values()].map((s) => (s.kind === 'path' ? path.basename(s.path) : s.kind)).sort(),
    ).toEqual([...ck.files.keys()].sort());
    // only small tables (positions, one-hot rows) are inline; every weight is a reference into the files
    const inline = m.model.graph.initializers.reduce((s, t) => s + (t.raw?.length ?? 0), 0);
    const referenced = m.model.graph.initializers.reduce((s, t) => s + (t.external?.length ?? 0), 0);
    expect(inline).toBeLessThan(referenced / 20);
    expect(referenced).toBeGreaterThan(0.9 * [...ck.weights.values()].reduce((s, w) => s + w.length, 0));
    const input = await nodeSessionInput(m);
    expect(input.folder).toBe(path.resolve(dir));
    expect(input.externalData).toBeUndefined();
  });

  it('a source read in parts (Range requests): each tensor the graph uses is read once, and the forward matches', async () => {
    const f = loadFixture('tiny-rope');
    const { source, bytesRead } = countingSource(fixtureDir('tiny-rope'));
    const model = await ConsisIDTransformer3DModel.fromPretrained('tiny-rope', {
      source,
      environment: { backend: async () => nodeBackend(), localSource: async () => null, defaultDevice: 'cpu' },
    });
    const headerBytes = bytesRead();
    const shape = prepareForward(model.config, f.args).shape;
    const refs = model
      .buildGraph(shape)
      .model.graph.initializers.flatMap((t) => (t.external ? [t.external.length] : []));
    const out = await model.forward(f.args);
    expect(bytesRead() - headerBytes).toBe(refs.reduce((a, b) => a + b, 0));
    expect(relativeError(out.sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(
      f.meta.tolerance.max_abs_error_relative_to_max_abs_expected,
    );
    await model.release();
  });

  it('onnxruntime-node: the smaller of files and memory moves to the other (files are read, or memory goes inline)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'node-input-'));
    const file = path.join(dir, 'w.safetensors');
    writeFileSync(
      file,
      Uint8Array.from({ length: 64 }, (_, i) => i),
    );
    const tensor = (name: string, location: string, offset: number, length: number) => ({
      name,
      type: 'uint8' as const,
      dims: [length],
      external: { location, offset, length },
    });
    const graph = (big: number) => ({
      irVersion: 8,
      opsets: [],
      graph: {
        name: 'g',
        nodes: [],
        inputs: [],
        outputs: [],
        initializers: [tensor('a', 'w.safetensors', 16, 8), tensor('b', 'computed-1.bin', 0, big)],
      },
    });
    const computed = (n: number) => new Uint8Array(n).fill(200);
    // files hold more: the computed tensor goes inline, the folder is mapped
    const inline = await nodeSessionInput({
      model: graph(4),
      externalData: new Map([
        ['w.safetensors', { kind: 'path', path: file }],
        ['computed-1.bin', { kind: 'bytes', data: computed(4) }],
      ]),
    });
    expect(inline.folder).toBe(dir);
    expect(inline.externalData).toBeUndefined();
    expect(Buffer.from(inline.model).includes(Buffer.from(computed(4)))).toBe(true);
    // computed tensors outweigh what the files hold: the file's tensor is read, all from memory
    const memory = await nodeSessionInput({
      model: graph(32),
      externalData: new Map([
        ['w.safetensors', { kind: 'path', path: file }],
        ['computed-1.bin', { kind: 'bytes', data: computed(32) }],
      ]),
    });
    expect(memory.folder).toBeUndefined();
    expect(memory.externalData!.map((e) => [e.path, Array.from(e.data.subarray(0, 2))])).toEqual([
      ['computed-1.bin', [200, 200]],
      ['w.safetensors@16', [16, 17]],
    ]);
    await expect(
      nodeSessionInput({
        model: graph(4),
        externalData: new Map([
          ['w.safetensors', { kind: 'path', path: file }],
          ['computed-1.bin', { kind: 'path', path: '/elsewhere/computed-1.bin' }],
        ]),
      }),
    ).rejects.toThrow(/one folder/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('computed tensors: the next group is read while one computes, each group once; a failed read ahead is reported by its group', async () => {
    const log: string[] = [];
    const file = (failAt = -1): CheckpointFile => ({
      name: 'w.safetensors',
      describe: 'w.safetensors',
      size: 64,
      read: async (offset, length) => {
        log.push(`read ${offset}`);
        await new Promise((r) => setTimeout(r, 1));
        if (offset === failAt) throw new Error(`disk error at ${offset}`);
        return new Uint8Array(length).fill(offset);
      },
    });
    const group = (offset: number): ComputedGroup => ({
      inputs: [{ location: 'w.safetensors', offset, length: 4 }],
      compute: ([bytes]) => {
        log.push(`compute ${offset}`);
        return [bytes!.map((b) => b + 1), new Uint8Array([offset])];
      },
    });
    const groups = [group(0), group(8), group(16)];
    const tensor = (name: string, g: ComputedGroup, output: number): TensorDef => ({
      name,
      type: 'uint8',
      dims: [output ? 1 : 4],
      computed: { byteLength: output ? 1 : 4, group: g, output },
    });
    const model: ModelDef = {
      irVersion: 8,
      opsets: [],
      graph: {
        name: 'g',
        nodes: [],
        inputs: [],
        outputs: [],
        initializers: groups.flatMap((g, i) => [tensor(`q${i}`, g, 0), tensor(`s${i}`, g, 1)]),
      },
    };
    const m = await sessionModel(model, new Map([['w.safetensors', file()]]));
    expect(log).toEqual(['read 0', 'read 8', 'compute 0', 'read 16', 'compute 8', 'compute 16']);
    const data = m.model.graph.initializers.map((t) =>
      Array.from((m.externalData.get(t.external!.location) as { data: Uint8Array }).data),
    );
    expect(data).toEqual([[1, 1, 1, 1], [0], [9, 9, 9, 9], [8], [17, 17, 17, 17], [16]]);
    // the group read ahead fails while the one before it computes: the session fails with that error, no unhandled rejection
    await expect(sessionModel(model, new Map([['w.safetensors', file(8)]]))).rejects.toThrow(/disk error at 8/);
  });
});
