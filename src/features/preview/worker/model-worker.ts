// The model worker the page runs on: started for one set of run options, stopped by a cancel, a
// new checkpoint or a failure. A call on a stopped worker rejects; `stopped` tells that rejection
// (whoever stopped the worker already said why) from a real failure.
import type { CheckpointInfo } from '../checkpoint.ts';
import type { DecodeRequest, Device, LoadEvent, ModelApi, RunEvent, RunOptions, RunRequest } from './protocol.ts';
import { rpcClient, type RpcClient } from './rpc.ts';

export class ModelWorker {
  #loaded = false;
  #stopped = false;

  private constructor(
    private readonly rpc: RpcClient<ModelApi>,
    private readonly options: RunOptions,
  ) {}

  static start(options: RunOptions): ModelWorker {
    const worker = new Worker(new URL('./model.worker.ts', import.meta.url), {
      type: 'module',
      name: 'consisid-preview',
    });
    return new ModelWorker(rpcClient<ModelApi>(worker), options);
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** loaded with these options: a run with others needs a fresh worker */
  serves(options: RunOptions): boolean {
    return this.#loaded && !this.#stopped && JSON.stringify(this.options) === JSON.stringify(options);
  }

  /**
   * The inspected checkpoint's model with its session made for `request`: float32 with `download`
   * stores every file first; otherwise the worker streams what is not cached (caching it as it goes).
   */
  async load(
    info: CheckpointInfo,
    request: RunRequest,
    download: boolean,
    onEvent: (e: LoadEvent) => void,
  ): Promise<Device> {
    const files = info.files.map(({ name, size, etag, head, cached }) => ({ name, size, etag, head, cached }));
    const { spec, mode, steps, guidance, uploads } = request;
    const { device } = await this.rpc.call(
      'load',
      { ref: info.ref, files, request: { spec, mode, steps, guidance, uploads }, download, ...this.options },
      onEvent,
    );
    this.#loaded = true;
    return device;
  }

  run(request: RunRequest, onEvent: (e: RunEvent) => void) {
    return this.rpc.call('run', request, onEvent);
  }

  /** the latents through the inspected vae/ on this worker's device; the signal cancels it between batches */
  decode(req: Omit<DecodeRequest, 'device' | 'threads'>, on: (e: ModelApi['decode']['event']) => void, s: AbortSignal) {
    return this.rpc.call('decode', { ...req, device: this.options.device, threads: this.options.threads }, on, s);
  }

  /** after a run: the chunks the session did not read go into the cache too; true when every file is cached */
  finishCache(): Promise<boolean> {
    return this.rpc.call('finishCache', null).catch(() => false);
  }

  stop(): void {
    this.#stopped = true;
    this.rpc.terminate();
  }
}
