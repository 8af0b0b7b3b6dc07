// A forward whose inputs live on the session's device: the ones that stay the same from step to
// step are uploaded once, the ones that change are fed per run (device tensors or host data).
import type { ModelDef } from '../onnx/onnx-proto.ts';
import type { BackendSession, DeviceTensor, Feed, FloatTensor } from './types.ts';

export interface DeviceForward {
  /** the `sample` of one forward, with `replace` fed in place of the uploaded inputs it names (hidden_states, timestep, ...) */
  run(replace: Readonly<Record<string, Feed>>): Promise<DeviceTensor>;
  /** host data on the forward's device, to feed many runs; the caller disposes it */
  upload(t: FloatTensor): Promise<DeviceTensor>;
  /** a session for a small graph of the caller's (no weights) on the same device, keeping `deviceOutputs` there */
  session(model: ModelDef, deviceOutputs: readonly string[]): Promise<BackendSession>;
  /** frees the uploaded inputs */
  dispose(): void;
}

export async function deviceForward(
  session: BackendSession,
  feeds: Readonly<Record<string, FloatTensor>>,
  hooks: {
    /** times one forward */
    run<T>(fn: () => Promise<T>): Promise<T>;
    createSession(model: ModelDef, deviceOutputs: readonly string[]): Promise<BackendSession>;
  },
): Promise<DeviceForward> {
  const uploaded: Record<string, DeviceTensor> = {};
  try {
    for (const [name, t] of Object.entries(feeds)) uploaded[name] = await session.upload(t);
  } catch (e) {
    for (const t of Object.values(uploaded)) t.dispose();
    throw e;
  }
  return {
    async run(replace) {
      const unknown = Object.keys(replace).filter((k) => !(k in uploaded));
      if (unknown.length) throw new Error(`the forward has no input ${unknown.join(', ')}`);
      const out = await hooks.run(() => session.runOnDevice({ ...uploaded, ...replace }));
      const { sample, ...rest } = out;
      for (const t of Object.values(rest)) t.dispose();
      if (!sample) throw new Error('the session returned no "sample" output');
      return sample;
    },
    upload: (t) => session.upload(t),
    session: (model, deviceOutputs) => hooks.createSession(model, deviceOutputs),
    dispose() {
      for (const t of Object.values(uploaded)) t.dispose();
    },
  };
}
