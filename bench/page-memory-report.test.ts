import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  byKind,
  overall,
  PAGE_LIMIT_BYTES,
  pageMemory,
  pageMemoryFigures,
  stageOf,
  stagePeaks,
  STAGES,
  type PageMemory,
  type ProcessMemory,
  type Reading,
} from './page-memory-report.ts';

const MIB = 2 ** 20;
const procs = (renderer: number, gpu: number, browser = 0, other = 0): ProcessMemory => ({
  renderer: { pss: renderer, rss: renderer + 1 },
  gpu: { pss: gpu, rss: gpu + 1 },
  browser: { pss: browser, rss: browser },
  other: { pss: other, rss: other },
});
const page = (total: number, workers = 0): PageMemory => ({ total, window: total - workers, workers });

describe('the stage a status line tells', () => {
  it('follows a 2-segment run from the click to the output', () => {
    const lines = [
      'The model loads when you run it.',
      'Loading the model on WebGPU: 1.0 MB of 900 MB streamed from the hub…',
      'Running: forward pass…',
      'Running: building the ONNX graph…',
      'Running: creating the WebGPU session…',
      'Running: creating the WebGPU session: segment 1 of 2…',
      'Running: creating the WebGPU session: segment 2 of 2…',
      'Running: forward pass…',
      'Model loaded on WebGPU.',
    ];
    const stages: string[] = [];
    let s: string | null = null;
    for (const l of lines) stages.push((s = stageOf(l, s)));
    expect(stages).toEqual([
      STAGES.idle,
      STAGES.load,
      STAGES.load,
      STAGES.convert,
      STAGES.session,
      'segment 1 of 2',
      'segment 2 of 2',
      STAGES.forward,
      STAGES.done,
    ]);
  });

  it('keeps the stage it had for a line it does not know, and a forward stays a forward', () => {
    expect(stageOf('Something else', 'segment 3 of 4')).toBe('segment 3 of 4');
    expect(stageOf('Running: step 2 of 4 (t = 500)…', STAGES.forward)).toBe(STAGES.forward);
    expect(stageOf('Running: forward pass…', STAGES.convert)).toBe(STAGES.convert);
  });
});

describe("the page's memory from measureUserAgentSpecificMemory()", () => {
  it('splits the total into the window and its dedicated workers (shared and DOM only in the total)', () => {
    const m = pageMemory({
      bytes: 1000,
      breakdown: [
        { bytes: 100, attribution: [{ scope: 'Window', url: 'http://x/' }], types: ['JavaScript'] },
        {
          bytes: 600,
          attribution: [{ scope: 'DedicatedWorkerGlobalScope', url: 'http://x/w.js' }],
          types: ['JavaScript'],
        },
        {
          bytes: 250,
          attribution: [{ scope: 'DedicatedWorkerGlobalScope', url: 'http://x/p.js' }],
          types: ['JavaScript'],
        },
        { bytes: 40, attribution: [], types: ['Shared'] },
        { bytes: 10, attribution: [], types: ['DOM'] },
      ],
    });
    expect(m).toEqual({ total: 1000, window: 100, workers: 850 });
  });
});

describe("the processes' memory by kind", () => {
  it("counts the largest renderer as the page's and Chromium's other renderers with the rest", () => {
    const m = byKind([
      { kind: 'browser', pss: 100, rss: 150 },
      { kind: 'renderer', pss: 40, rss: 70 },
      { kind: 'renderer', pss: 900, rss: 1000 },
      { kind: 'gpu', pss: 500, rss: 600 },
      { kind: 'other', pss: 10, rss: 20 },
      { kind: 'other', pss: 5, rss: 5 },
    ]);
    expect(m).toEqual({
      browser: { pss: 100, rss: 150 },
      renderer: { pss: 900, rss: 1000 },
      gpu: { pss: 500, rss: 600 },
      other: { pss: 55, rss: 95 },
    });
  });

  it('loses no bytes, for any processes', () => {
    const kind = fc.constantFrom('browser' as const, 'renderer' as const, 'gpu' as const, 'other' as const);
    fc.assert(
      fc.property(fc.array(fc.record({ kind, pss: fc.nat(10 ** 9), rss: fc.nat(10 ** 9) })), (ps) => {
        const m = byKind(ps);
        const sum = (f: 'pss' | 'rss') => Object.values(m).reduce((s, k) => s + k[f], 0);
        expect(sum('pss')).toBe(ps.reduce((s, p) => s + p.pss, 0));
        expect(sum('rss')).toBe(ps.reduce((s, p) => s + p.rss, 0));
        expect(m.renderer.pss).toBe(Math.max(0, ...ps.filter((p) => p.kind === 'renderer').map((p) => p.pss)));
      }),
    );
  });
});

describe('peaks per stage', () => {
  const r = <T>(t: number, stage: string, value: T): Reading<T> => ({ t, stage, value });

  it("each stage's highest readings, the sum of the processes at one reading (not the sum of their peaks)", () => {
    const stages = stagePeaks(
      [r(1, 'a', page(300, 200)), r(3, 'a', page(500, 450)), r(5, 'b', page(100, 50))],
      [r(0.5, 'a', procs(10, 90)), r(2, 'a', procs(80, 30)), r(4, 'b', procs(5, 5, 1, 1))],
    );
    expect(stages.map((s) => s.stage)).toEqual(['a', 'b']);
    const [a, b] = stages;
    expect(a!.page).toEqual(page(500, 450));
    expect(a!.pss).toEqual({ renderer: 80, gpu: 90, browser: 0, other: 0, all: 110 });
    expect(a!.rss.all).toBe(112);
    expect([a!.fromS, a!.toS]).toEqual([0.5, 3]);
    expect(b!.pss.all).toBe(12);
    expect(b!.page).toEqual(page(100, 50));
  });

  it('a stage with process readings only has no page reading; the overall peak is the highest of any stage', () => {
    const stages = stagePeaks([r(1, 'a', page(300))], [r(0, 'a', procs(1, 2)), r(2, 'b', procs(7, 1))]);
    expect(stages[1]!.page).toBeNull();
    const o = overall(stages);
    expect(o.page?.total).toBe(300);
    expect(o.pss.renderer).toBe(7);
    expect(o.pss.all).toBe(8);
  });

  it('overall is at least every stage and equals one of them, for any readings', () => {
    const reading = fc.record({
      t: fc.double({ min: 0, max: 1000, noNaN: true }),
      stage: fc.constantFrom('a', 'b', 'c'),
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(reading, fc.nat(10 ** 9)), { minLength: 1 }),
        fc.array(fc.tuple(reading, fc.nat(10 ** 9), fc.nat(10 ** 9)), { minLength: 1 }),
        (pages, ps) => {
          const stages = stagePeaks(
            pages.map(([x, n]) => ({ ...x, value: page(n) })),
            ps.map(([x, a, b]) => ({ ...x, value: procs(a, b) })),
          );
          const o = overall(stages);
          expect(o.page?.total).toBe(Math.max(...pages.map(([, n]) => n)));
          expect(o.pss.all).toBe(Math.max(...ps.map(([, a, b]) => a + b)));
          for (const s of stages) expect(s.fromS).toBeLessThanOrEqual(s.toS);
        },
      ),
    );
  });
});

describe('the figures', () => {
  it('holds the page peak against 1.5 GB, met below it and missed above', () => {
    const run = (peak: number) =>
      pageMemoryFigures('b', 'x', stagePeaks([{ t: 0, stage: 's', value: page(peak) }], [])).find(
        (f) => f.metric === 'x peak page JS + WASM',
      );
    expect(run(PAGE_LIMIT_BYTES - MIB)?.ok).toBe(true);
    expect(run(PAGE_LIMIT_BYTES + MIB)?.ok).toBe(false);
    expect(run(1024 * MIB)?.value).toBe(1024);
  });
});
