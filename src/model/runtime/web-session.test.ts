import type * as Ort from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import { RangeBlob } from '../io/range-blob.ts';
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

/** onnxruntime-web's WebGPU build over a fake GPU: its one output `y` = 2 x, where the session was asked to keep it */
function webgpuLike() {
  const events: string[] = [];
  const buffers = new Map<object, Float32Array>();
  const buffer = (size: number) => {
    const b = {
      // mapping resolves later, as a GPU's does
      mapAsync: () => new Promise<void>((done) => setTimeout(() => done(void events.push('map')), 0)),
      getMappedRange: () => buffers.get(b)!.buffer,
      unmap: () => undefined,
      destroy: () => void events.push('destroy'),
    };
    buffers.set(b, new Float32Array(size / 4));
    return b;
  };
  const device = {
    createBuffer: ({ size }: { size: number }) => buffer(size),
    createCommandEncoder: () => ({
      copyBufferToBuffer: (src: object, _s: number, dst: object, _d: number, size: number) => {
        events.push(`copy ${size}`);
        buffers.get(dst)!.set(buffers.get(src)!.subarray(0, size / 4));
      },
      finish: () => 'commands',
    }),
    queue: { submit: () => void events.push('submit') },
  };
  const options: Record<string, unknown>[] = [];
  class Tensor {
    location = 'cpu';
    gpuBuffer?: object;
    constructor(
      _type: string,
      readonly data: Float32Array,
      readonly dims: number[],
    ) {}
    static fromGpuBuffer(b: object, { dims }: { dims: number[] }) {
      return Object.assign(new Tensor('float32', buffers.get(b)!, dims), { location: 'gpu-buffer', gpuBuffer: b });
    }
  }
  const create = async (_model: Uint8Array, opts: Record<string, unknown>) => {
    options.push(opts);
    const keep = (opts.preferredOutputLocation as Record<string, string> | undefined)?.y === 'gpu-buffer';
    return {
      inputNames: ['x'],
      outputNames: ['y'],
      release: async () => undefined,
      async run(feeds: Record<string, Tensor>) {
        const y = feeds.x!.data.map((v) => 2 * v);
        if (!keep) return { y: new Tensor('float32', y, feeds.x!.dims) };
        const b = buffer(16);
        buffers.get(b)!.set(y);
        return {
          y: Object.assign(Tensor.fromGpuBuffer(b, { dims: feeds.x!.dims }), {
            getData: async (release: boolean) => (events.push(`getData ${release}`), y),
            dispose: () => void events.push('dispose output'),
          }),
        };
      },
    };
  };
  const ort = { env: { wasm: {}, webgpu: { device } }, Tensor, InferenceSession: { create } } as unknown as typeof Ort;
  return { ort, events, options };
}

const graphOnly: SessionModel = {
  model: { irVersion: 8, opsets: [], graph: { name: 'g', nodes: [], inputs: [], outputs: [], initializers: [] } },
  externalData: new Map(),
};

describe('onnxruntime-web backend on WebGPU', () => {
  it('keeps only the outputs asked for on the GPU; a session that was not asked is made as before', async () => {
    const { ort, options } = webgpuLike();
    await ortWebBackend(ort).createSession(graphOnly, { device: 'webgpu' });
    await ortWebBackend(ort).createSession(graphOnly, { device: 'webgpu', deviceOutputs: ['y'] });
    await ortWebBackend(ort).createSession(graphOnly, { device: 'wasm', deviceOutputs: ['y'] });
    expect(options.map((o) => o.preferredOutputLocation)).toEqual([undefined, { y: 'gpu-buffer' }, undefined]);
  });

  it('an output left on the GPU feeds the next run as it is, and is read back by a copy queued when asked', async () => {
    const { ort, events } = webgpuLike();
    const session = await ortWebBackend(ort).createSession(graphOnly, { device: 'webgpu', deviceOutputs: ['y'] });
    const x = await session.upload({ data: Float32Array.of(1, 2, 3), dims: [3] });
    expect(x.location).toBe('gpu-buffer');
    const { y } = await session.runOnDevice({ x });
    const { y: z } = await session.runOnDevice({ x: y! });
    events.length = 0;
    const read = z!.download();
    // queued before download() returned: the caller may free the buffer at once
    expect(events).toEqual(['copy 16', 'submit']);
    z!.dispose();
    expect(await read).toEqual(Float32Array.of(4, 8, 12));
    expect(events).toEqual(['copy 16', 'submit', 'dispose output', 'map', 'destroy']);
    // run() still gives host data: the GPU output is read back and released by onnxruntime
    events.length = 0;
    expect((await session.run({ x: { data: Float32Array.of(1), dims: [1] } })).y!.data).toEqual(Float32Array.of(2));
    expect(events).toEqual(['getData true']);
  });
});
