// Segments of the transformer as one session: created one after another, each from a model made
// only when the one before it exists, so one segment's external data is held at a time; run in
// order, each on the model's inputs and what the segments before it output.
import type { BackendSession, DeviceTensor, Feed, SessionModel } from './types.ts';

/** makes a segment's model (its weights as external data) when its turn comes */
export type SegmentModel = () => Promise<SessionModel>;

/**
 * Sessions for `segments`, in order. A segment's SessionModel is made only after the previous
 * session exists and is not kept: once the backend has its session, nothing here holds its bytes.
 * When one fails, those already made are released.
 */
export async function createSegmentedSession(
  segments: readonly SegmentModel[],
  create: (model: SessionModel, index: number) => Promise<BackendSession>,
): Promise<BackendSession> {
  const sessions: BackendSession[] = [];
  try {
    for (const [i, segment] of segments.entries()) sessions.push(await create(await segment(), i));
  } catch (e) {
    await Promise.allSettled(sessions.map((s) => s.release()));
    throw e;
  }
  return segmentedSession(sessions);
}

/** for each segment, the values no later segment reads (they can go once it has run) */
function lastReaders(sessions: readonly BackendSession[]): string[][] {
  const last = new Map<string, number>();
  sessions.forEach((s, i) => s.inputNames.forEach((n) => last.set(n, i)));
  sessions.forEach((s, i) => s.outputNames.forEach((n) => last.set(n, Math.max(last.get(n) ?? i, i))));
  const out = sessions.map((): string[] => []);
  for (const [name, i] of last) out[i]!.push(name);
  return out;
}

/** sessions that run one after another as one: its inputs are those no earlier segment outputs */
export function segmentedSession(sessions: readonly BackendSession[]): BackendSession {
  const final = sessions.at(-1);
  if (!final) throw new Error('a segmented session needs at least one segment');
  const produced = new Set<string>();
  const inputNames: string[] = [];
  for (const s of sessions) {
    for (const n of s.inputNames) if (!produced.has(n) && !inputNames.includes(n)) inputNames.push(n);
    for (const n of s.outputNames) produced.add(n);
  }
  const done = lastReaders(sessions);
  const outputNames = final.outputNames;
  /** runs the segments in order: what one outputs is fed to those after it, by name */
  async function runAll<T extends Feed>(
    feeds: Readonly<Record<string, Feed>>,
    runOne: (s: BackendSession, feeds: Record<string, Feed>) => Promise<Record<string, T>>,
    free: (v: T) => void,
  ): Promise<Record<string, T>> {
    // What flows between segments: host tensors from run(), device tensors from runOnDevice()
    // (GPU buffers on WebGPU, freed once the last segment reading them has run).
    const values = new Map<string, Feed>(Object.entries(feeds));
    const made = new Set<string>();
    for (const [i, s] of sessions.entries()) {
      const segmentFeeds: Record<string, Feed> = {};
      for (const n of s.inputNames) {
        const v = values.get(n);
        if (!v) throw new Error(`segment ${i + 1} of ${sessions.length}: input "${n}" was not fed`);
        segmentFeeds[n] = v;
      }
      for (const [n, v] of Object.entries(await runOne(s, segmentFeeds))) {
        values.set(n, v);
        made.add(n);
      }
      for (const n of done[i]!) {
        if (outputNames.includes(n)) continue;
        if (made.has(n)) free(values.get(n) as T);
        values.delete(n);
      }
    }
    return Object.fromEntries(outputNames.map((n) => [n, values.get(n) as T]));
  }
  return {
    inputNames,
    outputNames,
    run: (feeds) =>
      runAll(
        feeds,
        (s, f) => s.run(f as Parameters<BackendSession['run']>[0]),
        () => undefined,
      ),
    runOnDevice: (feeds) =>
      runAll<DeviceTensor>(
        feeds,
        (s, f) => s.runOnDevice(f),
        (v) => v.dispose(),
      ),
    upload: (t) => final.upload(t),
    async release() {
      await Promise.all(sessions.map((s) => s.release()));
    },
  };
}
