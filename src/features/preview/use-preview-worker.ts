// The preview page's controller. What the page reads is a query (preview-queries.ts): the
// inspection of the checkpoint the user asked for, and the bytes of it already stored. What the
// user does goes through the reducer: download into the browser cache, load the model in a
// worker, run it, cancel (a download is aborted, a worker terminated), clear the cache.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { cachedFiles, deleteCachedFiles, removeCachedFiles } from '../../model/index.ts';
import { holdsAny } from './cache-contents.ts';
import {
  allStored,
  downloadCheckpoint,
  withStored,
  type CheckpointInfo,
  type CheckpointRef,
  type DownloadProgress,
} from './checkpoint.ts';
import { ModelWorker, type RunOptions } from './model-worker.ts';
import { cachedQuery, inspectionQuery, storedQuery } from './preview-queries.ts';
import { initialPreviewState, isBusy, previewReducer, type Phase } from './preview-state.ts';
import { throttleLatest } from './throttle-latest.ts';
import type { RunRequest } from './protocol.ts';
import type { ProviderProbe } from './provider.ts';

export type { RunOptions };

const isAbort = (e: unknown) => (e as Error)?.name === 'AbortError';

/** `probe`: the WebGPU adapter, which decides before any download whether a checkpoint fits (null while probed) */
export function usePreviewWorker(probe: ProviderProbe | null) {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(previewReducer, initialPreviewState);
  const worker = useRef<ModelWorker | null>(null);
  const download = useRef<AbortController | null>(null);

  const asked = inspectionQuery(state.checkpoint?.ref ?? null, state.checkpoint?.attempt ?? 0, probe);
  const inspection = useQuery(asked);
  // an inspection waits for the adapter probe (a few milliseconds), which decides whether the checkpoint fits
  const phase: Phase =
    inspection.isFetching || (state.checkpoint !== null && !probe)
      ? { kind: 'inspecting' }
      : inspection.isError
        ? { kind: 'failed', error: inspection.error }
        : state.activity;
  const busy = isBusy(phase);
  const inspected = inspection.data ?? null;
  const stored = useQuery(storedQuery(inspected, inspection.dataUpdatedAt, busy));
  const info = inspected && stored.data ? withStored(inspected, stored.data) : inspected;
  const cached = useQuery(cachedQuery(inspected, inspection.dataUpdatedAt, busy)).data ?? null;

  /** what is stored now that a download or run stored everything (or a clear removed it), without counting */
  const setStored = async (of: CheckpointInfo, cached: boolean) => {
    const { queryKey } = storedQuery(of, inspection.dataUpdatedAt, busy);
    await queryClient.cancelQueries({ queryKey });
    queryClient.setQueryData(queryKey, allStored(of.files, cached));
  };

  const stopWorker = useCallback(() => {
    worker.current?.stop();
    worker.current = null;
    dispatch({ type: 'workerStopped' });
  }, []);
  // leaving the page stops what runs for it: a download (which would go on to load a model) and the worker
  useEffect(
    () => () => {
      download.current?.abort();
      stopWorker();
    },
    [stopWorker],
  );

  const inspect = (ref: CheckpointRef) => {
    download.current?.abort();
    stopWorker();
    dispatch({ type: 'inspect', ref });
  };

  /** weights not in the cache go there first; false when cancelled or failed */
  const downloadWeights = async (info: CheckpointInfo): Promise<boolean> => {
    if (info.missingBytes === 0 || state.uncached) return true;
    const ac = (download.current = new AbortController());
    const onProgress = throttleLatest((progress: DownloadProgress) => dispatch({ type: 'download', progress }), 100);
    dispatch({ type: 'download', progress: null });
    try {
      const r = await downloadCheckpoint(info, { signal: ac.signal, onProgress });
      if (r.cached) await setStored(info, true);
      else
        dispatch({
          type: 'cacheRefused',
          notice: `The browser cache could not keep the weights (${r.reason}): each run streams them from the hub.`,
        });
      return true;
    } catch (e) {
      if (isAbort(e)) dispatch({ type: 'cancelled', notice: 'Download cancelled; nothing was loaded.' });
      else dispatch({ type: 'failed', error: e });
      return false;
    } finally {
      onProgress.cancel();
    }
  };

  /** a fresh worker with the model loaded */
  const load = async (info: CheckpointInfo, opts: RunOptions): Promise<ModelWorker | null> => {
    stopWorker();
    dispatch({ type: 'load' });
    const w = (worker.current = ModelWorker.start(opts));
    try {
      const device = await w.load(info, (e) =>
        dispatch(
          e.type === 'notice'
            ? { type: 'notice', notice: e.text }
            : { type: 'loadProgress', loaded: e.loaded, total: e.total },
        ),
      );
      dispatch({ type: 'loaded', device });
      return w;
    } catch (e) {
      if (w.stopped) return null;
      stopWorker();
      dispatch({ type: 'failed', error: e });
      return null;
    }
  };

  const run = async (info: CheckpointInfo, request: RunRequest, opts: RunOptions) => {
    dispatch({ type: 'notice', notice: null });
    const w = worker.current?.serves(opts) ? worker.current : await load(info, opts);
    if (!w) return;
    dispatch({ type: 'run', request });
    try {
      const result = await w.run(request, (e) => {
        if (e.type === 'stage') dispatch({ type: 'stage', stage: e.stage });
        else if (e.type === 'notice') dispatch({ type: 'notice', notice: e.text });
        else if (e.type === 'fallback')
          dispatch({
            type: 'notice',
            notice: `WebGPU could not run this graph (${e.reason}); running on WASM instead.`,
          });
        else dispatch({ type: 'step', frame: e });
      });
      dispatch({ type: 'done', result });
      if ((await w.finishCache()) && !w.stopped) await setStored(info, true);
    } catch (e) {
      if (w.stopped) return;
      // a run that failed (a lost WebGPU device, memory) may have left the worker unusable: the next run loads afresh
      stopWorker();
      dispatch({ type: 'failed', error: e });
    }
  };

  const cancel = () => {
    if (phase.kind === 'inspecting') {
      void queryClient.cancelQueries({ queryKey: asked.queryKey });
      dispatch({ type: 'cancelled', notice: 'Inspection cancelled.' });
    } else if (phase.kind === 'loading' && phase.step === 'download') download.current?.abort();
    // the worker streams and caches chunk by chunk: the chunks it stored stay for the next run
    else if (phase.kind === 'running' || phase.kind === 'loading') {
      stopWorker();
      dispatch({
        type: 'cancelled',
        notice:
          phase.kind === 'running'
            ? 'Run cancelled: the worker was stopped. The next run reloads the model from the browser cache.'
            : 'Loading cancelled.',
      });
    }
  };

  /** stops the worker (its open cache files would keep them), then `remove`s; says what went, or why it could not */
  const emptyCache = async (remove: () => Promise<number>) => {
    stopWorker();
    dispatch({ type: 'clear' });
    try {
      const files = await remove();
      if (inspected) await setStored(inspected, false);
      dispatch({ type: 'cleared', files });
    } catch (e) {
      // another tab may hold the files open: say so, the preview itself is unaffected
      dispatch({
        type: 'clearFailed',
        notice: `${(e as Error).message}. Close other tabs previewing a checkpoint and try again.`,
      });
    }
  };

  const clearCache = () => emptyCache(deleteCachedFiles);

  /** the inspected checkpoint's files out of the cache: their chunks and every precision they were converted to */
  const removeCached = (of: CheckpointInfo) =>
    emptyCache(async () => {
      const held = (await cachedFiles(of.files)).filter((f) => holdsAny([f])).length;
      await removeCachedFiles(of.files.map((f) => f.url));
      return held;
    });

  /**
   * The Download button: for float32 every file into the cache first (with progress), then the
   * model. Any other precision is converted as the model loads, into the cache: the files' chunks
   * would be downloaded for nothing (the conversion streams each file again), and a precision whose
   * converted files are all stored fetches nothing at all.
   */
  const downloadAndLoad = async (info: CheckpointInfo, opts: RunOptions) => {
    dispatch({ type: 'notice', notice: null });
    if (opts.weights !== 'float32' || (await downloadWeights(info))) await load(info, opts);
  };

  const { loadedDevice, ran, steps, result, notice } = state;
  return {
    state: { phase, info, cached, loadedDevice, ran, steps, result, notice },
    inspect,
    download: downloadAndLoad,
    run,
    cancel,
    clearCache,
    removeCached,
  };
}
