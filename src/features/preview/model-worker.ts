// The model worker the page runs on: started for one set of run options, stopped by a cancel, a
// new checkpoint or a failure. A call on a stopped worker rejects; `stopped` tells that rejection
// (whoever stopped the worker already said why) from a real failure.
import type { CheckpointInfo } from './checkpoint.ts';
import type { Device, LoadEvent, PreviewApi, RunEvent, RunRequest, RunResult, SegmentLimits } from './protocol.ts';
import { rpcClient, type RpcClient } from './worker-rpc.ts';
import type { WeightPrecision } from '../../model/index.ts';

export interface RunOptions {
  device: Device;
  /** automatic provider choice: a WebGPU failure falls back to WASM */
  fallback: boolean;
  threads: number;
  weights: WeightPrecision;
  /** WebGPU: segments fitted to the adapter's limits; null: one session */
  segmentLimits: SegmentLimits | null;
  /** converted bytes held in memory where the cache cannot store them (LoadRequest.memoryBudget) */
  memoryBudget: number | null;
}

const sameOptions = (a: RunOptions, b: RunOptions) =>
  a.device === b.device &&
  a.fallback === b.fallback &&
  a.threads === b.threads &&
  a.weights === b.weights &&
  a.memoryBudget === b.memoryBudget &&
  JSON.stringify(a.segmentLimits) === JSON.stringify(b.segmentLimits);

export class ModelWorker {
  #loaded = false;
  #stopped = false;

  private constructor(
    private readonly rpc: RpcClient<PreviewApi>,
    private readonly options: RunOptions,
  ) {}

  static start(options: RunOptions): ModelWorker {
    const worker = new Worker(new URL('./preview.worker.ts', import.meta.url), {
      type: 'module',
      name: 'consisid-preview',
    });
    return new ModelWorker(rpcClient<PreviewApi>(worker), options);
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** loaded with these options: a run with others needs a fresh worker */
  serves(options: RunOptions): boolean {
    return this.#loaded && !this.#stopped && sameOptions(this.options, options);
  }

  /** the model of the inspected checkpoint; the worker streams what is not cached (caching it as it goes) */
  async load(info: CheckpointInfo, onEvent: (e: LoadEvent) => void): Promise<Device> {
    const files = info.files.map(({ name, size, etag, head }) => ({ name, size, etag, head }));
    const { device } = await this.rpc.call('load', { ref: info.ref, files, ...this.options }, onEvent);
    this.#loaded = true;
    return device;
  }

  run(request: RunRequest, onEvent: (e: RunEvent) => void): Promise<RunResult> {
    return this.rpc.call('run', request, onEvent);
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
