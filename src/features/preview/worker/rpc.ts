// A small typed request/response channel over postMessage: the page calls a worker method and
// gets a promise; events the worker emits on the way (progress, stages, steps) go to a callback.

/** method name -> its arguments, its result and the events it emits */
export type RpcApi = Record<string, { args: unknown; result: unknown; event: unknown }>;

type Request = { id: number; method: string; args: unknown } | { id: number; abort: true };
type Reply =
  | { id: number; kind: 'event'; event: unknown }
  | { id: number; kind: 'result'; result: unknown }
  | { id: number; kind: 'error'; name: string; message: string };

/** the worker was terminated (cancel) or died: pending calls reject with this */
export class WorkerStoppedError extends Error {
  override name = 'WorkerStoppedError';
}

export interface RpcClient<A extends RpcApi> {
  call<M extends keyof A & string>(
    method: M,
    args: A[M]['args'],
    onEvent?: (e: A[M]['event']) => void,
    /** aborts the call: it rejects with the signal's reason, and the worker's handler sees its signal aborted */
    signal?: AbortSignal,
  ): Promise<A[M]['result']>;
  /** terminates the worker; pending calls reject with WorkerStoppedError */
  terminate(reason?: string): void;
}

interface Endpoint {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent) => void) | null;
}

export function rpcClient<A extends RpcApi>(
  worker: Endpoint & { terminate(): void; onerror: ((e: ErrorEvent) => void) | null },
): RpcClient<A> {
  let nextId = 1;
  const pending = new Map<
    number,
    { resolve(v: unknown): void; reject(e: Error): void; onEvent?: (e: unknown) => void }
  >();
  const failAll = (e: Error) => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.onmessage = (e: MessageEvent<Reply>) => {
    const r = e.data;
    const p = pending.get(r.id);
    if (!p) return;
    if (r.kind === 'event') return p.onEvent?.(r.event);
    pending.delete(r.id);
    if (r.kind === 'result') p.resolve(r.result);
    else p.reject(Object.assign(new Error(r.message), { name: r.name }));
  };
  worker.onerror = (e) => {
    e.preventDefault();
    failAll(new WorkerStoppedError(`the model worker failed: ${e.message || 'script error'}`));
  };
  return {
    call(method, args, onEvent, signal) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const abort = () => {
          if (!pending.delete(id)) return;
          worker.postMessage({ id, abort: true } satisfies Request);
          reject(signal!.reason);
        };
        signal?.addEventListener('abort', abort, { once: true });
        const settled = () => signal?.removeEventListener('abort', abort);
        pending.set(id, {
          resolve: (v) => (settled(), resolve(v as A[typeof method]['result'])),
          reject: (e) => (settled(), reject(e)),
          onEvent: onEvent as ((e: unknown) => void) | undefined,
        });
        worker.postMessage({ id, method, args } satisfies Request);
      });
    },
    terminate(reason = 'the model worker was stopped') {
      worker.terminate();
      failAll(new WorkerStoppedError(reason));
    },
  };
}

export interface RpcContext<E> {
  emit(event: E, transfer?: Transferable[]): void;
  /** aborted when the page aborts the call */
  signal: AbortSignal;
  /** buffers to move (not copy) with the result */
  transfer(...buffers: Transferable[]): void;
}

export type RpcHandlers<A extends RpcApi> = {
  [M in keyof A]: (args: A[M]['args'], ctx: RpcContext<A[M]['event']>) => Promise<A[M]['result']>;
};

/** the worker side: runs one handler per request and posts its events and its result or error */
export function serveRpc<A extends RpcApi>(scope: Endpoint, handlers: RpcHandlers<A>): void {
  const running = new Map<number, AbortController>();
  scope.onmessage = async (e: MessageEvent<Request>) => {
    if ('abort' in e.data) return running.get(e.data.id)?.abort();
    const { id, method, args } = e.data;
    const transfer: Transferable[] = [];
    const ac = new AbortController();
    running.set(id, ac);
    const ctx: RpcContext<unknown> = {
      emit: (event, t = []) => scope.postMessage({ id, kind: 'event', event } satisfies Reply, t),
      signal: ac.signal,
      transfer: (...b) => void transfer.push(...b),
    };
    try {
      const handler = handlers[method] as ((a: unknown, c: RpcContext<unknown>) => Promise<unknown>) | undefined;
      if (!handler) throw new Error(`the worker has no method "${method}"`);
      const result = await handler(args, ctx);
      scope.postMessage({ id, kind: 'result', result } satisfies Reply, transfer);
    } catch (err) {
      const error = asError(err);
      scope.postMessage({ id, kind: 'error', name: error.name, message: error.message } satisfies Reply);
    } finally {
      running.delete(id);
    }
  };
}

/** what the page shows for a thrown value: onnxruntime-web's WASM can throw things that are no Error */
export function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  // (TypeScript's lib has no WebAssembly.Exception yet)
  if (Object.prototype.toString.call(thrown) === '[object WebAssembly.Exception]') {
    return new Error('the model runtime stopped with a WebAssembly exception, which carries no message');
  }
  if (typeof thrown === 'string' && thrown.trim()) return new Error(thrown);
  if (typeof thrown === 'number') return new Error(`the model runtime stopped with error code ${thrown}`);
  let text: string;
  try {
    text = JSON.stringify(thrown) ?? String(thrown);
  } catch {
    text = Object.prototype.toString.call(thrown);
  }
  return new Error(`the model worker failed with ${text}`);
}
