import { describe, expect, it } from 'vitest';
import { createSegmentedSession, segmentedSession } from './segmented-session.ts';
import { hostTensor } from './ort-session.ts';
import {
  isDeviceTensor,
  type BackendSession,
  type DeviceTensor,
  type Feed,
  type FloatTensor,
  type SessionModel,
} from './types.ts';

const tensor = (v: number): FloatTensor => ({ data: Float32Array.of(v), dims: [1] });
const value = (t: FloatTensor | undefined): number => t!.data[0]!;

/** a session computing each output from its feeds, recording what it was fed */
function fake(
  inputNames: string[],
  outputs: Record<string, (feeds: Record<string, number>) => number>,
  log: string[] = [],
): BackendSession & { fed: string[][] } {
  const fed: string[][] = [];
  const compute = async (feeds: Readonly<Record<string, Feed>>) => {
    fed.push(Object.keys(feeds).sort());
    const x: Record<string, number> = {};
    for (const [k, t] of Object.entries(feeds)) {
      if (isDeviceTensor(t) && t.disposed) throw new Error(`"${k}" was disposed before its last reader ran`);
      x[k] = (isDeviceTensor(t) ? await t.download() : t.data)[0]!;
    }
    return Object.fromEntries(Object.entries(outputs).map(([k, f]) => [k, tensor(f(x))]));
  };
  return {
    inputNames,
    outputNames: Object.keys(outputs),
    fed,
    run: compute,
    async runOnDevice(feeds) {
      return Object.fromEntries(Object.entries(await compute(feeds)).map(([k, t]) => [k, hostTensor(t)]));
    },
    upload: async (t) => hostTensor(t),
    async release() {
      log.push(`release ${inputNames.join(',')}`);
    },
  };
}

const model = {} as SessionModel;

describe('segmented session', () => {
  it('runs segments in order, each fed the model inputs and earlier outputs it names', async () => {
    const first = fake(['x', 't'], { h1: (f) => f.x! + 1, temb: (f) => f.t! * 10 });
    const second = fake(['h1', 'temb'], { h2: (f) => f.h1! * f.temb! });
    const third = fake(['h2', 'temb', 'rope'], { sample: (f) => f.h2! - f.temb! + f.rope! });
    const s = segmentedSession([first, second, third]);
    expect(s.inputNames).toEqual(['x', 't', 'rope']);
    expect(s.outputNames).toEqual(['sample']);
    const out = await s.run({ x: tensor(2), t: tensor(3), rope: tensor(0.5) });
    expect(Object.keys(out)).toEqual(['sample']);
    expect(value(out.sample)).toBe((2 + 1) * 30 - 30 + 0.5);
    expect([first.fed, second.fed, third.fed]).toEqual([[['t', 'x']], [['h1', 'temb']], [['h2', 'rope', 'temb']]]);
  });

  it("passes device tensors between segments, disposing each once its last reader ran, never the caller's", async () => {
    const made: DeviceTensor[] = [];
    const track = (s: BackendSession): BackendSession => ({
      ...s,
      async runOnDevice(feeds) {
        const out = await s.runOnDevice(feeds);
        made.push(...Object.values(out));
        return out;
      },
    });
    const first = fake(['x', 't'], { h1: (f) => f.x! + 1, temb: (f) => f.t! * 10 });
    const second = fake(['h1', 'temb'], { h2: (f) => f.h1! * f.temb! });
    const third = fake(['h2', 'temb', 'rope'], { sample: (f) => f.h2! - f.temb! + f.rope! });
    const s = segmentedSession([first, second, third].map(track));
    const x = hostTensor(tensor(2));
    const out = await s.runOnDevice({ x, t: tensor(3), rope: tensor(0.5) });
    expect(await out.sample!.download()).toEqual(Float32Array.of((2 + 1) * 30 - 30 + 0.5));
    expect(made.filter((t) => t.disposed)).toHaveLength(3); // h1, temb, h2
    expect([x.disposed, out.sample!.disposed]).toEqual([false, false]);
  });

  it('names the segment and the input that nothing fed', async () => {
    const s = segmentedSession([fake(['x'], { h: (f) => f.x! }), fake(['h', 'face'], { sample: (f) => f.h! })]);
    await expect(s.run({ x: tensor(1) })).rejects.toThrow('segment 2 of 2: input "face" was not fed');
  });

  it("makes each segment's model only once the session before it exists", async () => {
    const events: string[] = [];
    const segment = (i: number) => async () => {
      events.push(`model ${i}`);
      return model;
    };
    const session = await createSegmentedSession([segment(0), segment(1), segment(2)], async (_m, i) => {
      events.push(`create ${i} start`);
      await new Promise((r) => setTimeout(r, 5));
      events.push(`create ${i} done`);
      return fake([`in${i}`], { [`in${i + 1}`]: (f) => f[`in${i}`]! + 1 });
    });
    expect(events).toEqual([
      'model 0',
      'create 0 start',
      'create 0 done',
      'model 1',
      'create 1 start',
      'create 1 done',
      'model 2',
      'create 2 start',
      'create 2 done',
    ]);
    expect(value((await session.run({ in0: tensor(1) })).in3)).toBe(4);
  });

  it('releases the sessions already made when a later one fails, and passes its error on', async () => {
    const log: string[] = [];
    const made = [fake(['a'], { b: () => 0 }, log), fake(['b'], { c: () => 0 }, log)];
    const failing = createSegmentedSession(
      [0, 1, 2].map(() => async () => model),
      async (_m, i) => {
        if (i === 2) throw new Error('out of GPU memory');
        return made[i]!;
      },
    );
    await expect(failing).rejects.toThrow('out of GPU memory');
    expect(log.sort()).toEqual(['release a', 'release b']);
  });
});
