import { afterEach, describe, expect, it } from 'vitest';
import { asError, rpcClient, serveRpc, WorkerStoppedError } from './rpc.ts';

type Api = {
  add: { args: { a: number; b: number }; result: number; event: string };
  fail: { args: null; result: never; event: never };
  throwValue: { args: null; result: never; event: never };
  hang: { args: null; result: never; event: never };
  waitAbort: { args: null; result: string; event: never };
};

const channels: MessageChannel[] = [];
/** the handlers that saw their call aborted */
const aborted: string[] = [];
afterEach(() => channels.splice(0).forEach((c) => (c.port1.close(), c.port2.close())));

/** a client and a served "worker" over a MessageChannel; terminate() closes the worker end */
function pair() {
  const ch = new MessageChannel();
  channels.push(ch);
  serveRpc<Api>(ch.port2 as unknown as Parameters<typeof serveRpc>[0], {
    async add({ a, b }, ctx) {
      ctx.emit(`adding ${a}`);
      ctx.emit(`and ${b}`);
      return a + b;
    },
    async fail() {
      throw Object.assign(new Error('config.json: not found'), { name: 'HubFileError' });
    },
    hang: () => new Promise<never>(() => undefined),
    waitAbort: (_, ctx) =>
      new Promise((resolve) => ctx.signal.addEventListener('abort', () => (aborted.push('handler'), resolve('late')))),
    async throwValue() {
      // what a C++ exception escaping onnxruntime-web's WASM is (TypeScript's lib has no types for it)
      const wasm = WebAssembly as unknown as {
        Tag: new (t: { parameters: string[] }) => object;
        Exception: new (tag: object, values: number[]) => unknown;
      };
      throw new wasm.Exception(new wasm.Tag({ parameters: ['i32'] }), [7]);
    },
  });
  const worker = Object.assign(ch.port1, { terminate: () => ch.port2.close(), onerror: null });
  return rpcClient<Api>(worker as unknown as Parameters<typeof rpcClient>[0]);
}

describe('worker rpc', () => {
  it('answers each call with its result, its events first, concurrently', async () => {
    const c = pair();
    const events: string[] = [];
    const [x, y] = await Promise.all([
      c.call('add', { a: 1, b: 2 }, (e) => events.push(e)),
      c.call('add', { a: 10, b: 20 }),
    ]);
    expect([x, y]).toEqual([3, 30]);
    expect(events).toEqual(['adding 1', 'and 2']);
  });

  it('rejects with the worker error, name and message kept', async () => {
    const err = await pair()
      .call('fail', null)
      .catch((e: Error) => e);
    expect(err).toMatchObject({ name: 'HubFileError', message: 'config.json: not found' });
  });

  it('a thrown value that is no Error reaches the page as a sentence, not "[object ...]"', async () => {
    const err = await pair()
      .call('throwValue', null)
      .catch((e: Error) => e);
    expect(err).toMatchObject({
      name: 'Error',
      message: 'the model runtime stopped with a WebAssembly exception, which carries no message',
    });
    expect(asError('session is closed').message).toBe('session is closed');
    expect(asError(12).message).toBe('the model runtime stopped with error code 12');
    expect(asError({ code: 3 }).message).toBe('the model worker failed with {"code":3}');
    expect(asError(undefined).message).toBe('the model worker failed with undefined');
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect(asError(cyclic).message).toBe('the model worker failed with [object Object]');
  });

  it('terminate rejects pending calls with WorkerStoppedError', async () => {
    const c = pair();
    const pending = c.call('hang', null);
    c.terminate('cancelled');
    await expect(pending).rejects.toBeInstanceOf(WorkerStoppedError);
  });

  it('an aborted call rejects with the reason at once and aborts the handler; the other calls go on', async () => {
    const c = pair();
    const ac = new AbortController();
    aborted.length = 0;
    const call = c.call('waitAbort', null, undefined, ac.signal);
    const other = c.call('add', { a: 2, b: 3 });
    ac.abort(new DOMException('left', 'AbortError'));
    await expect(call).rejects.toMatchObject({ name: 'AbortError', message: 'left' });
    expect(await other).toBe(5);
    await expect.poll(() => aborted).toEqual(['handler']);
    // a signal aborted before the call: nothing is sent
    await expect(c.call('add', { a: 1, b: 1 }, undefined, ac.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
