import { afterAll, describe, expect, it } from 'vitest';
import { ConsisIDTransformer3DModel } from '../../node.ts';
import type { StageEvent } from '../../runtime/events.ts';
import { countingSource } from '../../test-support/counting-source.ts';
import { fixtureDir, loadFixture, relativeError } from '../../test-support/fixtures.ts';
import { prepareForward } from './forward-inputs.ts';
import { planSegments, SegmentPlanError } from '../../plan/segment-plan.ts';
import { nodeBackend } from '../../runtime/node.ts';
import { buildConsisIDSegments } from '../../graph/segments.ts';

const released: ConsisIDTransformer3DModel[] = [];
afterAll(async () => {
  for (const m of released) await m.release();
});

async function open(opts: Parameters<typeof ConsisIDTransformer3DModel.fromPretrained>[1] = {}) {
  const m = await ConsisIDTransformer3DModel.fromPretrained(fixtureDir('tiny-face'), { device: 'cpu', ...opts });
  released.push(m);
  return m;
}

describe('ConsisIDTransformer3DModel in segments', () => {
  it("forward in segments gives the one-session forward's sample, and the stages once each", async () => {
    const f = loadFixture('tiny-face');
    const whole = (await (await open()).forward(f.args)).sample.data as Float32Array;
    const stages: string[] = [];
    const m = await open({
      segments: 3,
      onStage: (e: StageEvent) => void (e.state === 'end' && stages.push(e.stage)),
      // each segment's turn, between the session stage's start and its end
      onSegment: (e) => void stages.push(`segment ${e.index + 1} of ${e.count} on ${e.device}`),
    });
    expect(m.segmentsFor(prepareForward(m.config, f.args).shape)).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 3 },
      { from: 3, to: 4 },
    ]);
    const out = await m.forward(f.args);
    expect(out.sample.shape).toEqual(f.expectedShape);
    expect(relativeError(out.sample.data as Float32Array, whole)).toBeLessThanOrEqual(1e-6);
    expect(stages).toEqual([
      'weights',
      'graph',
      'segment 1 of 3 on cpu',
      'segment 2 of 3 on cpu',
      'segment 3 of 3 on cpu',
      'session',
      'forward',
    ]);
    // the cached segmented session serves the next forward
    expect(relativeError((await m.forward(f.args)).sample.data as Float32Array, whole)).toBeLessThanOrEqual(1e-6);
    expect(stages.filter((s) => s === 'session')).toHaveLength(1);
  });

  it("a forward's own listener hears each segment's turn once, when its session is made; a one-session model none", async () => {
    const f = loadFixture('tiny-face');
    const heard: string[] = [];
    const onSegment = (e: { index: number; count: number }) => void heard.push(`${e.index}/${e.count}`);
    const m = await open({ segments: 2 });
    await m.forward(f.args, { onSegment });
    await m.forward(f.args, { onSegment });
    expect(heard).toEqual(['0/2', '1/2']);
    await (await open()).forward(f.args, { onSegment });
    expect(heard).toHaveLength(2);
  });

  it("auto: as many segments as the heap budget needs; one when everything fits (today's single graph)", async () => {
    const f = loadFixture('tiny-face');
    const shape = prepareForward((await open()).config, f.args).shape;
    const roomy = await open({ segments: 'auto' });
    expect(roomy.segmentsFor(shape)).toBeNull();
    const whole = planSegments(roomy.config, shape, { device: 'cpu', segments: 1 }).segments[0]!.weightBytes;
    const tight = await open({ segments: 'auto', segmentLimits: { heapBudget: whole - 1 } });
    const planned = tight.segmentsFor(shape);
    expect(planned?.length).toBeGreaterThan(1);
    expect(relativeError((await tight.forward(f.args)).sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(
      f.meta.tolerance.max_abs_error_relative_to_max_abs_expected,
    );
    const tooSmall = await open({ segments: 'auto', segmentLimits: { heapBudget: 1000 } });
    await expect(tooSmall.forward(f.args)).rejects.toThrow(SegmentPlanError);
    await expect(tooSmall.forward(f.args)).rejects.toThrow(/block 0 with the embeddings alone: its weights/);
  });

  it('refuses a segment count the model cannot have, naming the option', async () => {
    await expect(open({ segments: 0 })).rejects.toThrow(/segments: 0 is not a whole number of segments/);
    await expect(open({ segments: 5 })).rejects.toThrow(
      /segments: 5 is not a whole number of segments from 1 to the 4 blocks/,
    );
    await expect(open({ segments: 'many' as never })).rejects.toThrow(
      /segments: "many" is neither "auto" nor a number/,
    );
  });

  it("a segment's session gets only its own tensors' bytes, never a whole file as a Blob", async () => {
    // onnxruntime-web/webgpu reads a Blob external-data file whole into memory (a shard is several GB)
    const { source, reads, blobs } = countingSource(fixtureDir('tiny-face'), { blobs: true });
    const environment = {
      backend: async () => nodeBackend(),
      localSource: async () => null,
      defaultDevice: 'cpu' as const,
    };
    const m = await ConsisIDTransformer3DModel.fromPretrained('tiny-face', { source, environment, segments: 2 });
    released.push(m);
    const f = loadFixture('tiny-face');
    const headers = reads.length;
    const out = await m.forward(f.args);
    expect(relativeError(out.sample.data as Float32Array, f.expected)).toBeLessThanOrEqual(
      f.meta.tolerance.max_abs_error_relative_to_max_abs_expected,
    );
    expect(blobs()).toBe(0);
    const shape = prepareForward(m.config, f.args).shape;
    const referenced = buildConsisIDSegments(m.config, m.weights, shape, m.segmentsFor(shape)!)
      .flatMap((b) => b.model.graph.initializers)
      .reduce((n, t) => n + (t.external?.length ?? 0), 0);
    expect(reads.slice(headers).reduce((a, b) => a + b, 0)).toBe(referenced);
  });
});
