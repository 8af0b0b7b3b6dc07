import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../models/consisid/load-checkpoint.ts';
import { localSource } from '../io/local-source.ts';
import { buildConsisIDGraph } from '../graph/transformer.ts';
import { prepareForward } from '../models/consisid/forward-inputs.ts';
import { sessionModel } from '../runtime/session-model.ts';
import { nodeBackend } from '../runtime/node.ts';
import { GraphBuilder } from '../onnx/graph-builder.ts';
import { graphCost, graphFlops, nodeFlops } from '../onnx/graph-cost.ts';
import { tensorBytes, type ModelDef } from '../onnx/onnx-proto.ts';
import { relu, add, reshape, constF32, multiHeadAttention } from '../onnx/ops.ts';
import { quantizationFor } from './precision.ts';
import { fixtureDir, loadFixture } from '../test-support/fixtures.ts';
import { main } from '../cli.ts';

const PRODUCTS = new Set(['MatMul', 'Gemm', 'MultiHeadAttention', 'MatMulNBits']);

/** runs the graph with every product's run-time inputs as outputs too (shapes left to onnxruntime) */
async function measuredShapes(
  model: ModelDef,
  files: Parameters<typeof sessionModel>[1],
  feeds: Parameters<Awaited<ReturnType<ReturnType<typeof nodeBackend>['createSession']>>['run']>[0],
): Promise<Map<string, number[]>> {
  // constants (initializers and what onnxruntime folds from them) stay out: only run-time values are probed
  const constant = new Set(model.graph.initializers.map((t) => t.name));
  for (const n of model.graph.nodes)
    if (n.opType !== 'DequantizeLinear' && n.inputs.every((i) => !i || constant.has(i)))
      n.outputs.forEach((o) => constant.add(o));
  const inputs = new Set(model.graph.inputs.map((t) => t.name));
  const rank = new Map(model.graph.valueInfo!.map((v) => [v.name, v.dims.length]));
  const probe = [
    ...new Set(
      model.graph.nodes
        .filter((n) => PRODUCTS.has(n.opType))
        .flatMap((n) => n.inputs.filter((i) => i && !constant.has(i) && !inputs.has(i))),
    ),
  ];
  // symbolic dims: onnxruntime computes the sizes, the builder's are not handed to it
  const outputs = [
    ...model.graph.outputs,
    ...probe.map((name) => ({
      name,
      type: 'float32' as const,
      dims: Array.from({ length: rank.get(name)! }, (_, i) => `${name}_${i}`),
    })),
  ];
  const session = await nodeBackend().createSession(
    await sessionModel({ ...model, graph: { ...model.graph, outputs } }, files),
    { device: 'cpu' },
  );
  try {
    const out = await session.run(feeds);
    return new Map(Object.entries(out).map(([k, v]) => [k, [...v.dims]]));
  } finally {
    await session.release();
  }
}

describe('graph cost', () => {
  for (const [name, weights] of [
    ['tiny-face', 'float32'],
    ['tiny-rope', 'int8'],
    ['tiny-face', 'int4'],
  ] as const) {
    it(`${name} ${weights}: the FLOPs recounted from the shapes onnxruntime computes equal the plan's`, async () => {
      const f = loadFixture(name);
      const { config, weights: w, files } = await loadCheckpoint(localSource(fixtureDir(name)));
      const { shape, feeds } = prepareForward(config, f.args);
      const model = buildConsisIDGraph(config, w, shape, { quantization: quantizationFor(weights, 'cpu') }).model;
      const measured = await measuredShapes(model, files, feeds);
      const declared = new Map(model.graph.valueInfo!.map((v) => [v.name, v.dims]));
      for (const [k, dims] of measured) if (declared.has(k)) expect(dims, k).toEqual(declared.get(k));
      // weights (and what folds from them) keep their declared shapes; every run-time value is measured
      const defs = new Map(
        [...model.graph.initializers, ...model.graph.inputs, ...model.graph.valueInfo!].map((t) => [
          t.name,
          { type: t.type, dims: t.dims.map(Number) },
        ]),
      );
      const shapeOf = (v: string) =>
        measured.has(v) ? { type: 'float32' as const, dims: measured.get(v)! } : defs.get(v)!;
      const recount = model.graph.nodes.reduce((s, n) => s + nodeFlops(n, shapeOf), 0);
      expect(recount).toBe(graphFlops(model.graph));
      expect(recount).toBeGreaterThan(0);
    });
  }

  it('weight bytes: float32 holds the checkpoint (F32) as it is; quantized ones hold what the session model computes', async () => {
    const f = loadFixture('tiny-rope');
    const { config, weights, files } = await loadCheckpoint(localSource(fixtureDir('tiny-rope')));
    const { shape } = prepareForward(config, f.args);
    const checkpointBytes = [...weights.values()].reduce((s, e) => s + e.length, 0);
    for (const precision of ['float32', 'int8', 'int4'] as const) {
      const model = buildConsisIDGraph(config, weights, shape, {
        quantization: quantizationFor(precision, 'cpu'),
      }).model;
      const planned = graphCost(model.graph).weightBytes;
      const materialized = (await sessionModel(model, files)).model.graph.initializers.reduce(
        (s, t) => s + tensorBytes(t),
        0,
      );
      expect(planned, precision).toBe(materialized);
      if (precision === 'float32') {
        const inline = model.graph.initializers.reduce((s, t) => s + (t.raw?.length ?? 0), 0);
        expect(planned - inline).toBe(checkpointBytes);
      } else expect(planned).toBeLessThan(checkpointBytes / (precision === 'int8' ? 1.5 : 2));
    }
  });

  it('activation peak: tensors alive at once, views sharing their input, constants not counted', () => {
    const g = new GraphBuilder('t');
    const x = g.input('x', 'float32', [256]); // 1 KiB
    const a = relu(g, x); // x dies after this node: 2 KiB alive while it runs
    const b = relu(g, reshape(g, a, [16, 16])); // a view of a, then b: a + b = 2 KiB
    const c = add(g, reshape(g, b, [256]), constF32(g, new Float32Array(256), [256], 'k')); // b + c = 2 KiB
    g.output(add(g, c, a), 'y'); // a is read again here: a + b + c peak = 3 KiB before b dies
    const cost = graphCost(g.toModel().graph);
    expect(cost.activationPeakBytes).toBe(3 * 1024);
    expect(cost.weightBytes).toBe(1024 + 8 * 3);
  });

  it("on WebGPU: flash attention's copies of the keys and values, and what the EP's buffer cache holds", () => {
    const g = new GraphBuilder('t');
    const q = g.input('q', 'float32', [1, 64, 32]); // 8 KiB each
    const k = relu(g, g.input('k', 'float32', [1, 64, 32]));
    const v = relu(g, g.input('v', 'float32', [1, 64, 32]));
    g.output(multiHeadAttention(g, q, k, v, 2), 'y');
    const graph = g.toModel().graph;
    const cpu = graphCost(graph);
    // q, k, v inputs, the two relus and the output while attention runs; its (1, 2, 64, 64) probabilities on CPU
    expect(cpu.livePeakBytes).toBe(4 * 8192 + 2 * 64 * 64 * 4);
    const webgpu = graphCost(graph, { flashAttention: true });
    expect(webgpu.livePeakBytes).toBe(4 * 8192 + 2 * 8192);
    expect(webgpu.bufferDemand).toBeNull();
    for (const bufferCache of ['lazyRelease', 'simple', 'bucket'] as const) {
      const held = graphCost(graph, { flashAttention: true, bufferCache });
      expect(held.livePeakBytes).toBe(webgpu.livePeakBytes);
      // the inputs stay the caller's for the whole run, with their upload's staging copies
      expect(held.activationPeakBytes, bufferCache).toBeGreaterThanOrEqual(webgpu.livePeakBytes + 2 * 8192);
    }
  });

  it('consisid plan prints the full ConsisID as not fitting a browser, and a tiny config as fitting', async () => {
    const lines: string[] = [];
    expect(await main(['plan', '--model', 'consisid'], (l) => lines.push(l))).toBe(0);
    const out = lines.join('\n');
    expect(out).toMatch(/plan for consisid: batch 1, 13 latent frames of 60x90, 226 text tokens/);
    expect(out).toMatch(/^float32 +23\.16 GiB .* 334\.6 TFLOP .* no +no$/m);
    // the figures src/model/README.md quotes for the full model
    expect(out.match(/^(float32|float16|int8|int4) +\S+ GiB/gm)?.map((l) => l.replace(/ +/, ' '))).toEqual([
      'float32 23.16 GiB',
      'float16 11.58 GiB',
      'int8 5.98 GiB',
      'int4 4.02 GiB',
    ]);
    expect(out).toMatch(/^int8 +5\.98 GiB +58\.35 GiB +341\.6 TFLOP /m);
    // WebGPU runs attention as flash attention: no probabilities buffer, the largest is a weight concat
    expect(out).not.toMatch(/WebGPU: .*attention probabilities/);
    expect(out).toMatch(
      /WebGPU: \d+ buffer\(s\) over the 128\.0 MiB one storage binding may hold, the largest modulation\/Concat_\d+ \(2\.96 GiB\)/,
    );
    expect(out).toMatch(/WASM: weights 4\.02 GiB \+ activations 58\.35 GiB exceed the 4 GiB heap/);
    lines.length = 0;
    expect(
      await main(
        ['plan', '--model', fixtureDir('tiny-face'), '--shape', 'frames=2,height=6,width=8,text=7,vit=9'],
        (l) => lines.push(l),
      ),
    ).toBe(0);
    expect(lines.filter((l) => / fits +fits$/.test(l))).toHaveLength(4);
    expect(await main(['plan', '--model', 'tiny', '--gpu-limits', 'maxBufferSize=lots'], () => {})).toBe(2);
  });
});
