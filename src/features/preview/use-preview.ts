// The preview page's one hook. What the page reads is a query (queries.ts): the adapter, the
// inspection of the checkpoint asked for, what of it the browser cache holds, the room left and
// each precision's plan. What the user does goes through the reducer (preview-state.ts) and, for
// everything that touches the model or the cache, through a worker: load (float32 downloads into
// the cache first), run, decode, cancel (the model worker is stopped; a decode is aborted), remove, clear.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSession } from '../../components/session/session-context.tsx';
import { downloadOffer, fitStorage, convertedTotals } from './cache-contents.ts';
import { checkpointFileVersions, withStored, type CheckpointInfo, type CheckpointProgress } from './checkpoint.ts';
import { pageOptions, type RepoChoice } from './page-options.ts';
import { initialPreviewState, isBusy, previewReducer, type Phase } from './preview-state.ts';
import { adapterCaps, chooseDevice, defaultPrecision } from './provider.ts';
import {
  cachedQuery,
  convertedQuery,
  fitQuery,
  inspectionQuery,
  storageRoomQuery,
  vaeFitQuery,
  webgpuProbeQuery,
} from './queries.ts';
import { requestErrors, stepsValid } from './spec-errors.ts';
import { throttleLatest } from './throttle-latest.ts';
import { ModelWorker } from './worker/model-worker.ts';
import { planWorker } from './worker/plan-client.ts';
import type { DecodeRequest, LoadEvent, ModelApi, RunOptions, RunRequest, RunResult } from './worker/protocol.ts';

const NEW_REQUEST = { mode: 'forward', steps: 4, guidance: 1, compare: false } as const;

export function usePreview() {
  const { session } = useSession();
  const [params] = useSearchParams();
  const [options] = useState(() => pageOptions(params));
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(previewReducer, options, (o) => ({
    ...initialPreviewState,
    choice: o.provider,
    precision: o.weights,
  }));
  const worker = useRef<ModelWorker | null>(null);
  const decoding = useRef<AbortController | null>(null);
  const { data: probe = null } = useQuery(webgpuProbeQuery());

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
  const listing = cachedQuery(inspected, inspection.dataUpdatedAt, busy);
  const cached = useQuery(listing).data ?? null;
  const info = inspected && cached ? withStored(inspected, cached) : inspected;

  // the inputs of a run, kept per inspected checkpoint: a new inspection starts from its defaults
  const draft = state.draft;
  const request: RunRequest | null =
    info &&
    (draft?.ref === info.ref ? draft.request : { ...(draft?.request ?? NEW_REQUEST), spec: info.spec, uploads: {} });
  const specErrors = info && request ? requestErrors(info, request) : [];
  const spec = specErrors.length ? null : (request?.spec ?? null);
  const device = probe ? chooseDevice(state.choice, probe) : null;

  // the browser's storage, read again whenever what the cache holds of the checkpoint changes
  const storedBytes = info ? info.downloadBytes - info.missingBytes : 0;
  const convertedBytes = convertedTotals(cached ?? []).reduce((n, t) => n + t.bytes, 0);
  const room = useQuery(storageRoomQuery(storedBytes + convertedBytes)).data ?? null;
  // a refused checkpoint offers nothing to download: its table is the plan's alone
  const converted = useQuery(convertedQuery(info, spec, device)).data;
  const storage = (info && !info.refused && fitStorage(room, cached, converted)) || undefined;
  // each precision at the chosen latent size on the chosen device (planned in the plan worker, kept per shape)
  const fit = useQuery(fitQuery(info?.config ?? null, spec, device, probe, options.heapBudget, storage));
  const fits = fit.data?.fits ?? null;
  const weights = state.precision ?? (device && probe ? defaultPrecision(device, probe, fits ?? []) : 'float32');
  const chosenFit = fits?.find((f) => f.weights === weights);
  // the decode beside the chosen precision's sessions: what they hold is what its fit says
  const transformer = chosenFit
    ? {
        device: chosenFit.device,
        weights: chosenFit.weights,
        gpuBytes: chosenFit.gpuBytes,
        heapBytes: chosenFit.heapBytes,
      }
    : null;
  const beside = { transformer, budgetBytes: options.decodeBudget, threads: options.threads };
  const vaeFit = useQuery(vaeFitQuery(info, spec, device, probe && adapterCaps(probe), beside));
  const runOptions: RunOptions | null = device && {
    device,
    fallback: state.choice === 'auto',
    threads: options.threads,
    weights,
    segmentLimits: device === 'webgpu' && probe ? { gpu: probe.limits, heapBudget: options.heapBudget } : null,
    memoryBudget: fit.data?.held[weights] ?? null,
  };

  /** the cache's listing is read again (a download, a run or a removal changed it) once the page is idle */
  const relist = () => queryClient.invalidateQueries({ queryKey: listing.queryKey });

  const stopWorker = useCallback(() => {
    worker.current?.stop();
    worker.current = null;
    dispatch({ type: 'workerStopped' });
  }, []);
  // leaving the page stops the model worker (and the download or run in it)
  useEffect(() => stopWorker, [stopWorker]);

  /** a fresh worker with the model loaded and its session made; float32 with `download` stores the files first */
  const load = async (of: CheckpointInfo, req: RunRequest, opts: RunOptions, download: boolean) => {
    stopWorker();
    dispatch(download ? { type: 'download', progress: null } : { type: 'load' });
    const w = (worker.current = ModelWorker.start(opts));
    const onProgress = throttleLatest((progress: CheckpointProgress) => dispatch({ type: 'download', progress }), 100);
    const onEvent = (e: LoadEvent) => {
      if (e.type === 'notice') dispatch({ type: 'notice', notice: e.text });
      else if (e.type === 'fallback') dispatch({ type: 'notice', notice: fallbackNotice(e.reason) });
      else if (e.type === 'download') onProgress(e.progress);
      else if (e.type === 'fetched')
        dispatch({ type: 'loadModel', update: { fetched: { loaded: e.loaded, total: e.total } } });
      else if (e.type === 'stage') dispatch({ type: 'loadModel', update: { stage: e.stage } });
      else {
        onProgress.cancel();
        if (e.cached) void relist();
        else
          dispatch({
            type: 'cacheRefused',
            notice: `The browser cache could not keep the weights (${e.reason}): each run streams them from the hub.`,
          });
        dispatch({ type: 'load' });
      }
    };
    try {
      dispatch({ type: 'loaded', device: await w.load(of, req, download, onEvent) });
      return w;
    } catch (e) {
      if (w.stopped) return null;
      stopWorker();
      dispatch({ type: 'failed', error: e });
      return null;
    } finally {
      onProgress.cancel();
    }
  };

  const run = async (of: CheckpointInfo, req: RunRequest, opts: RunOptions) => {
    dispatch({ type: 'notice', notice: null });
    const w = worker.current?.serves(opts) ? worker.current : await load(of, req, opts, false);
    if (!w) return;
    dispatch({ type: 'run', request: req });
    try {
      const result = await w.run(req, (e) => {
        if (e.type === 'stage') dispatch({ type: 'stage', stage: e.stage });
        else if (e.type === 'notice') dispatch({ type: 'notice', notice: e.text });
        else if (e.type === 'fallback') dispatch({ type: 'notice', notice: fallbackNotice(e.reason) });
        else dispatch({ type: 'step', frame: e });
      });
      dispatch({ type: 'done', result });
      if ((await w.finishCache()) && !w.stopped) await relist();
    } catch (e) {
      if (w.stopped) return;
      // a run that failed (a lost WebGPU device, memory) may have left the worker unusable: the next run loads afresh
      stopWorker();
      dispatch({ type: 'failed', error: e });
    }
  };

  /** the run's latents through the checkpoint's vae/ on the worker that ran them (or a fresh one); Cancel aborts it */
  const decode = async (vae: DecodeRequest['vae'], { sample, shape }: RunResult, opts: RunOptions) => {
    const w = worker.current?.stopped === false ? worker.current : (worker.current = ModelWorker.start(opts));
    const ac = (decoding.current = new AbortController());
    dispatch({ type: 'decode', batch: null });
    const req = { vae, latents: { data: sample, dims: shape }, limits: probe?.limits ?? null, ...beside };
    const onEvent = (e: ModelApi['decode']['event']) =>
      e.type === 'batch'
        ? dispatch({ type: 'decode', batch: e.batch })
        : e.type === 'notice' && dispatch({ type: 'notice', notice: e.text });
    await w.decode(req, onEvent, ac.signal).then(
      (clip) => dispatch({ type: 'decoded', clip }),
      (e: unknown) => void (ac.signal.aborted || w.stopped || dispatch({ type: 'failed', error: e })),
    );
  };

  const cancel = () => {
    if (phase.kind === 'inspecting') {
      void queryClient.cancelQueries({ queryKey: asked.queryKey });
      dispatch({ type: 'cancelled', notice: 'Inspection cancelled.' });
    } else if (phase.kind === 'running' || phase.kind === 'loading') {
      // the worker streams and caches chunk by chunk: the chunks it stored stay for the next run
      stopWorker();
      dispatch({ type: 'cancelled', notice: cancelNotice(phase) });
    } else if (phase.kind === 'decoding') {
      decoding.current?.abort();
      dispatch({ type: 'cancelled', notice: 'Decode cancelled: the latents stay, Decode starts again.' });
    }
  };

  /** stops the worker (its open cache files would keep them), then the plan worker removes; says what went, or why not */
  const emptyCache = async (remove: () => Promise<number>) => {
    stopWorker();
    dispatch({ type: 'clear' });
    try {
      const files = await remove();
      await relist();
      dispatch({ type: 'cleared', files });
    } catch (e) {
      // another tab may hold the files open: say so, the preview itself is unaffected
      const notice = `${(e as Error).message}. Close other tabs previewing a checkpoint and try again.`;
      dispatch({ type: 'clearFailed', notice });
    }
  };

  const ready = info && request && runOptions;
  return {
    state: { phase, busy, info, cached, room, probe, device, weights, request, specErrors, notice: state.notice },
    choice: state.choice,
    loadedDevice: state.loadedDevice,
    output: { steps: state.steps, result: state.result, ran: state.ran, clip: state.clip },
    fit: { fits, answer: fit.data ?? null, error: fit.error, converted, chosen: chosenFit ?? null, vae: vaeFit },
    offer: info ? downloadOffer(info, cached, weights) : null,
    runBlocked: specErrors.length > 0 || !request || !stepsValid(request) || !chosenFit?.fits,
    initialRepo: options.repo,
    inspect: (c: RepoChoice) =>
      dispatch({
        type: 'inspect',
        ref: { hubUrl: session?.baseUrl ?? window.location.origin, token: session?.token ?? null, ...c },
      }),
    choose: (choice: typeof state.choice) => dispatch({ type: 'choose', choice }),
    choosePrecision: (w: typeof weights) => dispatch({ type: 'precision', weights: w }),
    edit: (r: RunRequest) => info && dispatch({ type: 'edit', ref: info.ref, request: r }),
    /**
     * The Download button loads the model: float32 stores every file first (with progress). Any
     * other precision is converted into the cache as the session is made: the files' chunks would
     * be downloaded for nothing (the conversion streams each file again).
     */
    download: () => {
      if (!ready) return;
      dispatch({ type: 'notice', notice: null });
      const whole = weights === 'float32' && !state.uncached && info.missingBytes > 0;
      void load(info, request, runOptions, whole);
    },
    run: () => void (ready && run(info, request, runOptions)),
    decode: () => void (state.result && ready && !('error' in info.vae) && decode(info.vae, state.result, runOptions)),
    cancel,
    clearCache: () => void emptyCache(() => planWorker().call('clear', null)),
    /** the inspected checkpoint's files (its vae/'s too) out of the cache: their chunks and every conversion */
    removeCached: () => void (info && emptyCache(() => planWorker().call('remove', checkpointFileVersions(info)))),
    /** an uploaded .safetensors read in the plan worker, checked against the config */
    readUpload: async (file: File, kind: 'text' | 'identity') =>
      planWorker().call('upload', {
        bytes: new Uint8Array(await file.arrayBuffer()),
        name: file.name,
        kind,
        config: info!.config,
      }),
    /** the run's output as a .safetensors file */
    outputFile: (sample: Float32Array, shape: number[], metadata: Record<string, string>) =>
      planWorker().call('output', { sample, shape, metadata }),
  };
}

export type Preview = ReturnType<typeof usePreview>;
/** what a panel of an inspected checkpoint gets: the page's hook, the inspection and the run's inputs */
export type PanelProps = { preview: Preview; info: CheckpointInfo; request: RunRequest };

const fallbackNotice = (reason: string) => `WebGPU could not run this graph (${reason}); running on WASM instead.`;

function cancelNotice(phase: Phase): string {
  if (phase.kind === 'running')
    return 'Run cancelled: the worker was stopped. The next run reloads the model from the browser cache.';
  return phase.kind === 'loading' && phase.step === 'download'
    ? 'Download cancelled; nothing was loaded.'
    : 'Loading cancelled.';
}
