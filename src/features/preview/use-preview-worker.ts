// The preview page's controller: inspects a checkpoint, downloads it into the browser cache, and
// owns the model worker (load, run, cancel by terminating it). State changes go through the reducer.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { deleteCachedFiles } from '../../model/index.ts';
import type { WeightPrecision } from '../../model/precision.ts';
import {
  downloadCheckpoint,
  inspectCheckpoint,
  recountStored,
  type CheckpointInfo,
  type CheckpointRef,
  type DownloadProgress,
} from './checkpoint.ts';
import { initialPreviewState, isBusy, previewReducer } from './preview-state.ts';
import { throttleLatest } from './throttle-latest.ts';
import type { Device, PreviewApi, RunRequest } from './protocol.ts';
import { rpcClient, type RpcClient } from './worker-rpc.ts';

export interface RunOptions {
  device: Device;
  /** automatic provider choice: a WebGPU failure falls back to WASM */
  fallback: boolean;
  threads: number;
  weights: WeightPrecision;
}

const isAbort = (e: unknown) => (e as Error)?.name === 'AbortError';

export function usePreviewWorker() {
  const [state, dispatch] = useReducer(previewReducer, initialPreviewState);
  const client = useRef<RpcClient<PreviewApi> | null>(null);
  /** what the live worker was loaded for: a run with other options loads a fresh one */
  const loadedFor = useRef<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  /** the browser cache refused the weights once: later runs stream them from the hub */
  const uncached = useRef(false);

  const stopWorker = useCallback(() => {
    client.current?.terminate();
    client.current = null;
    loadedFor.current = null;
    dispatch({ type: 'workerStopped' });
  }, []);
  // leaving the page stops what runs for it: a download (which would go on to load a model) and the worker
  useEffect(
    () => () => {
      abort.current?.abort();
      stopWorker();
    },
    [stopWorker],
  );

  // a download or run that stopped part way leaves chunks stored: the page then offers only the rest
  const busy = isBusy(state.phase);
  const info = state.info;
  useEffect(() => {
    if (busy || !info || info.missingBytes === 0) return;
    let live = true;
    void recountStored(info.files).then((files) => live && dispatch({ type: 'recounted', files }));
    return () => {
      live = false;
    };
  }, [busy, info]);

  const inspect = useCallback(
    async (ref: CheckpointRef) => {
      abort.current?.abort();
      const ac = (abort.current = new AbortController());
      stopWorker();
      // a cache that could not keep one checkpoint may keep another
      uncached.current = false;
      dispatch({ type: 'inspect' });
      try {
        dispatch({ type: 'inspected', info: await inspectCheckpoint(ref, ac.signal) });
      } catch (e) {
        // an inspection a newer one replaced says nothing
        if (!isAbort(e)) dispatch({ type: 'failed', error: e });
        else if (abort.current === ac) dispatch({ type: 'cancelled', notice: 'Inspection cancelled.' });
      }
    },
    [stopWorker],
  );

  /** weights not in the cache go there first; false when cancelled or failed */
  const download = async (info: CheckpointInfo): Promise<boolean> => {
    if (info.missingBytes === 0 || uncached.current) return true;
    const ac = (abort.current = new AbortController());
    const onProgress = throttleLatest((progress: DownloadProgress) => dispatch({ type: 'download', progress }), 100);
    dispatch({ type: 'download', progress: null });
    try {
      const r = await downloadCheckpoint(info, { signal: ac.signal, onProgress });
      if (r.cached) dispatch({ type: 'downloaded' });
      else {
        uncached.current = true;
        dispatch({
          type: 'notice',
          notice: `The browser cache could not keep the weights (${r.reason}): each run streams them from the hub.`,
        });
      }
      return true;
    } catch (e) {
      if (isAbort(e)) dispatch({ type: 'cancelled', notice: 'Download cancelled; nothing was loaded.' });
      else dispatch({ type: 'failed', error: e });
      return false;
    } finally {
      onProgress.cancel();
    }
  };

  /** a fresh worker with the model loaded; the worker streams what is not cached (caching it as it goes) */
  const load = async (info: CheckpointInfo, opts: RunOptions): Promise<RpcClient<PreviewApi> | null> => {
    stopWorker();
    dispatch({ type: 'load' });
    const worker = new Worker(new URL('./preview.worker.ts', import.meta.url), {
      type: 'module',
      name: 'consisid-preview',
    });
    const c = (client.current = rpcClient<PreviewApi>(worker));
    try {
      const files = info.files.map(({ name, size, etag }) => ({ name, size, etag }));
      const loaded = await c.call('load', { ref: info.ref, files, ...opts }, (e) =>
        dispatch(
          e.type === 'notice'
            ? { type: 'notice', notice: e.text }
            : { type: 'loadProgress', loaded: e.loaded, total: e.total },
        ),
      );
      loadedFor.current = JSON.stringify(opts);
      dispatch({ type: 'loaded', device: loaded.device });
      return c;
    } catch (e) {
      // a cancel or a new inspection replaced this worker: it already said so
      if (client.current !== c) return null;
      stopWorker();
      dispatch({ type: 'failed', error: e });
      return null;
    }
  };

  const run = async (info: CheckpointInfo, request: RunRequest, opts: RunOptions) => {
    dispatch({ type: 'notice', notice: null });
    const c = client.current && loadedFor.current === JSON.stringify(opts) ? client.current : await load(info, opts);
    if (!c) return;
    dispatch({ type: 'run', request });
    try {
      const result = await c.call('run', request, (e) => {
        if (e.type === 'stage') dispatch({ type: 'stage', stage: e.stage });
        else if (e.type === 'fallback')
          dispatch({
            type: 'notice',
            notice: `WebGPU could not run this graph (${e.reason}); running on WASM instead.`,
          });
        else dispatch({ type: 'step', frame: e });
      });
      dispatch({ type: 'done', result });
      if ((await c.call('finishCache', null).catch(() => false)) && client.current === c) dispatch({ type: 'cached' });
    } catch (e) {
      if (client.current !== c) return;
      // a run that failed (a lost WebGPU device, memory) may have left the worker unusable: the next run loads afresh
      stopWorker();
      dispatch({ type: 'failed', error: e });
    }
  };

  const cancel = () => {
    const p = state.phase;
    if (p.kind === 'inspecting' || (p.kind === 'loading' && p.step === 'download')) abort.current?.abort();
    // the worker streams and caches chunk by chunk: the chunks it stored stay for the next run
    else if (p.kind === 'running' || p.kind === 'loading') {
      stopWorker();
      dispatch({
        type: 'cancelled',
        notice:
          p.kind === 'running'
            ? 'Run cancelled: the worker was stopped. The next run reloads the model from the browser cache.'
            : 'Loading cancelled.',
      });
    }
  };

  const clearCache = async () => {
    // the worker first: its open cache files would keep them
    stopWorker();
    dispatch({ type: 'clear' });
    try {
      const files = await deleteCachedFiles();
      uncached.current = false;
      dispatch({ type: 'cacheCleared', files });
    } catch (e) {
      // another tab may hold the files open: say so, the preview itself is unaffected
      dispatch({
        type: 'clearFailed',
        notice: `${(e as Error).message}. Close other tabs previewing a checkpoint and try again.`,
      });
    }
  };

  /** the Download button: everything into the cache first (with progress), then the model */
  const downloadAndLoad = async (info: CheckpointInfo, opts: RunOptions) => {
    dispatch({ type: 'notice', notice: null });
    if (await download(info)) await load(info, opts);
  };

  return { state, inspect, download: downloadAndLoad, run, cancel, clearCache };
}
