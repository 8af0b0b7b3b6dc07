import type * as Ort from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import { RangeBlob } from '../loader/range-blob.ts';
import type { SessionModel } from './types.ts';
import { ortWebBackend } from './web-session.ts';

/** onnxruntime-web as its JSPI build reads Blob external data: each slice's stream, a failed read only as a code */
function jspiLike(fails?: string): typeof Ort {
  const create = async (_model: Uint8Array, opts: { externalData?: { path: string; data: Blob | Uint8Array }[] }) => {
    for (const { path, data } of opts.externalData ?? []) {
      if (!(data instanceof Blob)) continue;
      try {
        await new Response(data.slice(0, data.size).stream()).arrayBuffer();
      } catch {
        throw new Error(
          `Can't create a session. Failed to load external data file "${path}", error: Unknown error occurred in memory copy.`,
        );
      }
    }
    if (fails) throw new Error(fails);
    return {};
  };
  return { env: { wasm: {} }, InferenceSession: { create } } as unknown as typeof Ort;
}

const modelWith = (data: Blob): SessionModel => ({
  model: { irVersion: 8, opsets: [], graph: { name: 'g', nodes: [], inputs: [], outputs: [], initializers: [] } },
  externalData: new Map([['w.safetensors', { kind: 'blob', data }]]),
});

describe('onnxruntime-web backend', () => {
  it("a failed read of the weights fails the session with the read's own error, not onnxruntime's code", async () => {
    const failing = new RangeBlob(
      () => new ReadableStream({ pull: (ctl) => ctl.error(new Error('w.safetensors: HTTP 503 from the hub')) }),
      0,
      64,
    );
    await expect(ortWebBackend(jspiLike()).createSession(modelWith(failing), { device: 'wasm' })).rejects.toThrow(
      'w.safetensors: HTTP 503 from the hub',
    );
    // weights read in full, onnxruntime failing for its own reason: its own message
    const healthy = new RangeBlob(() => new Blob([new Uint8Array(64)]).stream(), 0, 64);
    await expect(
      ortWebBackend(jspiLike('Load model failed: invalid graph')).createSession(modelWith(healthy), { device: 'wasm' }),
    ).rejects.toThrow('Load model failed: invalid graph');
  });
});
