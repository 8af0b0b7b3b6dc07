// Segments of the transformer as one session: created one after another, each from a model made
// only when the one before it exists, so one segment's external data is held at a time; run in
// order, each on the model's inputs and what the segments before it output.
import type { BackendSession, FloatTensor, SessionModel } from './runtime/types.ts';

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
  return {
    inputNames,
    outputNames,
    async run(feeds) {
      // What flows between segments: host tensors, by name. This map is the one place where they
      // are handed from segment to segment (device-resident tensors would go here instead).
      const values = new Map<string, FloatTensor>(Object.entries(feeds));
      for (const [i, s] of sessions.entries()) {
        const segmentFeeds: Record<string, FloatTensor> = {};
        for (const n of s.inputNames) {
          const v = values.get(n);
          if (!v) throw new Error(`segment ${i + 1} of ${sessions.length}: input "${n}" was not fed`);
          segmentFeeds[n] = v;
        }
        for (const [n, v] of Object.entries(await s.run(segmentFeeds))) values.set(n, v);
        for (const n of done[i]!) if (!outputNames.includes(n)) values.delete(n);
      }
      return Object.fromEntries(outputNames.map((n) => [n, values.get(n)!]));
    },
    async release() {
      await Promise.all(sessions.map((s) => s.release()));
    },
  };
}
