// The model preview page: pick a ConsisID checkpoint on the hub, look at it before downloading,
// cache it in the browser, and run the transformer in a Web Worker on WebGPU or WASM.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSession } from '../../components/session/session-context.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import type { CheckpointInfo, CheckpointRef } from './checkpoint.ts';
import { CheckpointPanel, DEMO_REPOS, type RepoChoice } from './checkpoint-panel.tsx';
import { defaultSpec } from './inputs.ts';
import { InputsPanel, requestErrors, stepsValid } from './inputs-panel.tsx';
import { OutputPanel } from './output-panel.tsx';
import { FitPanel } from './fit-panel.tsx';
import { convertedQuery, fitQuery } from './fit-query.ts';
import { convertedTotals, downloadOffer, fitStorage } from './cache-contents.ts';
import { isBusy } from './preview-state.ts';
import type { RunRequest } from './protocol.ts';
import { chooseDevice, defaultPrecision, type ProviderChoice } from './provider.ts';
import { storageRoomQuery, webgpuProbeQuery } from './preview-queries.ts';
import { ProviderPanel } from './provider-panel.tsx';
import { RunPanel } from './run-panel.tsx';
import { usePreviewWorker } from './use-preview-worker.ts';
import { memoryBudgetOn, WEIGHT_PRECISIONS, type WeightPrecision } from '../../model/index.ts';
import { heldBudget, passingBytes } from '../../model/plan/storage-fit.ts';
import { SEGMENT_HEAP_BUDGET } from '../../model/plan/segment-plan.ts';

/** WASM threads need cross-origin isolation (SharedArrayBuffer); ?threads=N overrides the default */
function threadCount(asked: string | null): number {
  if (!crossOriginIsolated) return 1;
  const n = Number(asked);
  return Number.isInteger(n) && n >= 1 && n <= 16
    ? n
    : Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1));
}

/** ?segmentHeap=<bytes>: the weight bytes one WebGPU segment may pass through the heap (default SEGMENT_HEAP_BUDGET) */
function segmentHeapBudget(asked: string | null): number | undefined {
  const n = Number(asked);
  return asked && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** the inputs of a run, kept per inspected checkpoint: a new inspection starts from its defaults */
function useRunRequest(info: CheckpointInfo | null): [RunRequest | null, (r: RunRequest) => void] {
  const [draft, setDraft] = useState<{ ref: CheckpointRef; request: RunRequest } | null>(null);
  if (!info) return [null, () => undefined];
  const kept = draft ?? { ref: null, request: { mode: 'forward', steps: 4, guidance: 1, compare: false } };
  const request: RunRequest =
    kept.ref === info.ref ? kept.request : { ...kept.request, spec: defaultSpec(info.config), uploads: {} };
  return [request, (r) => setDraft({ ref: info.ref, request: r })];
}

export function Component() {
  const { session } = useSession();
  const [params] = useSearchParams();
  const { data: probe = null } = useQuery(webgpuProbeQuery());
  const [choice, setChoice] = useState<ProviderChoice>(() => {
    const p = params.get('provider');
    return p === 'webgpu' || p === 'wasm' ? p : 'auto';
  });
  const preview = usePreviewWorker(probe);
  const { phase, info, cached, loadedDevice, ran, steps, result, notice } = preview.state;
  const [request, setRequest] = useRunRequest(info);
  // ?weights= picks the precision a link or a reload starts with, as ?provider= the provider
  const [precision, setPrecision] = useState<WeightPrecision | null>(
    () => WEIGHT_PRECISIONS.find((w) => w === params.get('weights')) ?? null,
  );
  const busy = isBusy(phase);
  const heapBudget = segmentHeapBudget(params.get('segmentHeap'));
  const device = probe ? chooseDevice(choice, probe) : null;
  const specErrors = info && request ? requestErrors(info.config, request) : [];
  // the browser's storage, read again whenever what the cache holds of the checkpoint changes
  const storedBytes = info ? info.downloadBytes - info.missingBytes : 0;
  const convertedBytes = convertedTotals(cached ?? []).reduce((n, t) => n + t.bytes, 0);
  const room = useQuery(storageRoomQuery(storedBytes + convertedBytes)).data ?? null;
  // a refused checkpoint offers nothing to download: its table is the plan's alone
  const converted = useQuery(convertedQuery(info, specErrors.length ? null : (request?.spec ?? null), device)).data;
  const storage = (info && !info.refused && fitStorage(room, cached, converted)) || undefined;
  // each precision at the chosen latent size on the chosen device (planned in a worker, kept per shape)
  const fit = useQuery(
    fitQuery(
      info?.config ?? null,
      specErrors.length ? null : (request?.spec ?? null),
      device,
      probe,
      heapBudget,
      storage,
    ),
  );
  const fits = fit.data ?? null;
  const weights = precision ?? (device && probe ? defaultPrecision(device, probe, fits ?? []) : 'float32');
  const chosenFit = fits?.find((f) => f.weights === weights);
  // the converted bytes memory may hold where the cache cannot store them (storage-fit.ts)
  const memoryBudget = (device && memoryBudgetOn(device, heapBudget)) ?? SEGMENT_HEAP_BUDGET;
  const refusal = chosenFit && !chosenFit.fits ? `${weights} does not fit: ${chosenFit.reasons.join('; ')}` : null;
  const runOptions = device && {
    device,
    fallback: choice === 'auto',
    threads: threadCount(params.get('threads')),
    weights,
    segmentLimits: device === 'webgpu' && probe ? { gpu: probe.limits, heapBudget } : null,
    memoryBudget: chosenFit ? heldBudget(memoryBudget, passingBytes(chosenFit)) : null,
  };

  const inspect = (c: RepoChoice) =>
    void preview.inspect({ hubUrl: session?.baseUrl ?? window.location.origin, token: session?.token ?? null, ...c });
  const initial = {
    repoId: params.get('repo') ?? DEMO_REPOS[0]!,
    subfolder: params.get('subfolder') ?? 'transformer',
    revision: params.get('revision') ?? 'main',
  };

  return (
    <div className="space-y-5">
      <PageHeader
        title="Model preview"
        description="Run a ConsisID video transformer checkpoint from the hub in this browser, on WebGPU or WebAssembly."
      />
      <CheckpointPanel
        initial={initial}
        info={info}
        cached={cached}
        room={room}
        inspecting={phase.kind === 'inspecting'}
        busy={busy}
        onInspect={inspect}
        onCancel={preview.cancel}
        onRemoveCached={() => info && void preview.removeCached(info)}
      />
      <ProviderPanel
        probe={probe}
        choice={choice}
        onChoice={setChoice}
        weights={weights}
        onWeights={setPrecision}
        fits={fits}
        device={device}
        disabled={busy}
      />
      {info && (
        <FitPanel
          info={info}
          device={device}
          probe={probe}
          room={room}
          memoryBudget={memoryBudget}
          converted={converted}
          fits={fits}
          error={fit.error}
        />
      )}
      {info && request && !info.refused && (
        <InputsPanel info={info} request={request} weights={weights} onChange={setRequest} disabled={busy} />
      )}
      {info && request && !info.refused && (
        <RunPanel
          info={info}
          phase={phase}
          busy={busy}
          device={device}
          loadedDevice={loadedDevice}
          runLabel={request.mode === 'forward' ? 'Run forward pass' : `Run ${request.steps} denoising steps`}
          runBlocked={specErrors.length > 0 || !stepsValid(request) || !chosenFit?.fits}
          refusal={refusal}
          offer={downloadOffer(info, cached, weights)}
          onDownload={() => runOptions && void preview.download(info, runOptions)}
          onRun={() => runOptions && void preview.run(info, request, runOptions)}
          onCancel={preview.cancel}
          onClearCache={() => void preview.clearCache()}
        />
      )}
      {notice && (
        <p className="text-sm" role="status" data-testid="preview-notice">
          {notice}
        </p>
      )}
      {phase.kind === 'failed' && (
        <div data-testid="preview-error">
          <ErrorPanel error={phase.error} title="The preview failed" />
        </div>
      )}
      {(steps.length > 0 || result) && info && ran && (
        <OutputPanel
          steps={steps}
          result={result}
          meta={{
            repoId: info.ref.repoId,
            revision: info.ref.revision,
            subfolder: info.ref.subfolder,
            mode: ran.mode,
            spec: ran.spec,
          }}
        />
      )}
    </div>
  );
}
