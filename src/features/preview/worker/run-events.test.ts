import { describe, expect, it } from 'vitest';
import type { RunEvent, Timings } from './protocol.ts';
import { runEvents } from './run-events.ts';

const fresh = (): Timings => ({ loadMs: 0, graphBuildMs: [], sessionCreateMs: [], forwardMs: [], rotaryMs: 0 });

function recorder() {
  const got: RunEvent[] = [];
  const timings = fresh();
  const { events, runStage } = runEvents(timings, (e) => got.push(e));
  const stages = () => got.flatMap((e) => (e.type === 'stage' ? [e.stage] : []));
  return { events, runStage, timings, got, stages };
}

describe("a run's stage lines", () => {
  it('names each segment as its session is made, then shows the run again; the timings of each stage', () => {
    const r = recorder();
    r.runStage('forward pass');
    r.events.onStage!({ stage: 'graph', state: 'start', device: 'webgpu' });
    r.events.onStage!({ stage: 'graph', state: 'end', device: 'webgpu', ms: 40 });
    r.events.onStage!({ stage: 'session', state: 'start', device: 'webgpu' });
    r.events.onSegment!({ index: 0, count: 2, device: 'webgpu' });
    r.events.onSegment!({ index: 1, count: 2, device: 'webgpu' });
    r.events.onStage!({ stage: 'session', state: 'end', device: 'webgpu', ms: 30 });
    r.events.onStage!({ stage: 'forward', state: 'start', device: 'webgpu' });
    r.events.onStage!({ stage: 'forward', state: 'end', device: 'webgpu', ms: 20 });
    expect(r.stages()).toEqual([
      'forward pass',
      'building the ONNX graph',
      'creating the WebGPU session',
      'creating the WebGPU session: segment 1 of 2',
      'creating the WebGPU session: segment 2 of 2',
      'forward pass',
    ]);
    expect(r.timings).toMatchObject({ graphBuildMs: [40], sessionCreateMs: [30], forwardMs: [20] });
  });

  it("a denoising step whose forward makes the session comes back to that step's line; a fallback is passed on", () => {
    const r = recorder();
    r.runStage('step 1 of 4 (t = 999)');
    r.events.onStage!({ stage: 'session', state: 'start', device: 'wasm' });
    r.events.onFallback!({ from: 'webgpu', to: 'wasm', reason: 'no adapter' });
    r.events.onStage!({ stage: 'session', state: 'end', device: 'wasm', ms: 5 });
    r.runStage('step 2 of 4 (t = 749)');
    expect(r.stages()).toEqual([
      'step 1 of 4 (t = 999)',
      'creating the WASM session',
      'step 1 of 4 (t = 999)',
      'step 2 of 4 (t = 749)',
    ]);
    expect(r.got).toContainEqual({ type: 'fallback', reason: 'no adapter' });
  });

  it('a session made before any run stage (none to come back to) leaves the session line last', () => {
    const r = recorder();
    r.events.onStage!({ stage: 'session', state: 'start', device: 'webgpu' });
    r.events.onStage!({ stage: 'session', state: 'end', device: 'webgpu', ms: 1 });
    expect(r.stages()).toEqual(['creating the WebGPU session']);
  });
});
