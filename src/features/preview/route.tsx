// The model preview page: pick a ConsisID checkpoint on the hub, look at it before downloading,
// cache it in the browser, and run the transformer in a Web Worker on WebGPU or WASM.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSession } from '../../components/session/session-context.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { formatBytes } from '../../components/ui/format.ts';
import { downloadCheckpoint, inspectCheckpoint, type CheckpointInfo, type CheckpointRef, type DownloadProgress } from './checkpoint.ts';
import { defaultSpec, inputLimits, validateSpec, type InputSpec } from './inputs.ts';
import { chooseDevice, probeWebGPU, type ProviderChoice, type ProviderProbe } from './provider.ts';
import type { Device, FromWorker, RunRequest, ToWorker, Uploads } from './protocol.ts';
import { parseIdentityUpload, parseTextUpload } from './uploads.ts';
import { deleteCachedFiles } from './weight-cache.ts';
import { OutputView, type RunResult, type StepFrame } from './output-view.tsx';

const DEMO_REPOS = ['consisid-community/consisid-tiny', 'consisid-community/consisid-preview-s'];

type Phase =
  | { kind: 'idle' }
  | { kind: 'inspecting' }
  | { kind: 'inspected' }
  | { kind: 'downloading'; progress: DownloadProgress | null }
  | { kind: 'loading' }
  | { kind: 'ready' }
  | { kind: 'running'; stage: string };

class CancelledError extends Error {
  override name = 'CancelledError';
}

const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const id = useId();
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900" aria-labelledby={id} data-testid={testId}>
      <h2 id={id} className="mb-3 text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function NumberField({ label, value, onChange, min, max, step, hint, disabled }: { label: string; value: number; onChange(v: number): void; min?: number; max?: number; step?: number; hint?: string; disabled?: boolean }) {
  return (
    <Field label={label} hint={hint}>
      {(p) => <input {...p} type="number" className={inputClass} value={Number.isFinite(value) ? value : ''} min={min} max={max} step={step} disabled={disabled} onChange={(e) => onChange(e.target.value === '' ? NaN : Number(e.target.value))} />}
    </Field>
  );
}

export function Component() {
  const { session } = useSession();
  const [params] = useSearchParams();
  const [repoId, setRepoId] = useState(params.get('repo') ?? DEMO_REPOS[0]!);
  const [subfolder, setSubfolder] = useState(params.get('subfolder') ?? 'transformer');
  const [revision, setRevision] = useState(params.get('revision') ?? 'main');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<CheckpointInfo | null>(null);
  const [probe, setProbe] = useState<ProviderProbe | null>(null);
  const [choice, setChoice] = useState<ProviderChoice>(() => {
    const p = params.get('provider');
    return p === 'webgpu' || p === 'wasm' ? p : 'auto';
  });
  const [loadedDevice, setLoadedDevice] = useState<Device | null>(null);
  const [spec, setSpec] = useState<InputSpec | null>(null);
  const [mode, setMode] = useState<'forward' | 'denoise'>('forward');
  const [steps, setSteps] = useState(4);
  const [guidance, setGuidance] = useState(1);
  const [uploads, setUploads] = useState<Uploads>({});
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [stepsSeen, setStepsSeen] = useState<StepFrame[]>([]);
  const [result, setResult] = useState<RunResult | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const workerRef = useRef<Worker | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const runIdRef = useRef(0);
  const loadWaiters = useRef<{ resolve(): void; reject(e: Error): void } | null>(null);

  useEffect(() => {
    let live = true;
    void probeWebGPU().then((p) => live && setProbe(p));
    return () => {
      live = false;
    };
  }, []);

  const stopWorker = useCallback(() => {
    workerRef.current?.terminate();
    workerRef.current = null;
    setLoadedDevice(null);
  }, []);
  useEffect(() => () => stopWorker(), [stopWorker]);

  const ref = useMemo<CheckpointRef>(() => ({ hubUrl: session?.baseUrl ?? window.location.origin, token: session?.token ?? null, repoId: repoId.trim(), subfolder: subfolder.trim(), revision: revision.trim() || 'main' }), [session, repoId, subfolder, revision]);
  const device: Device | null = probe ? chooseDevice(choice, probe) : null;

  const inspect = async () => {
    abortRef.current?.abort();
    const ac = new AbortController();
    abortRef.current = ac;
    stopWorker();
    setError(null);
    setInfo(null);
    setResult(null);
    setStepsSeen([]);
    setUploads({});
    setPhase({ kind: 'inspecting' });
    try {
      const i = await inspectCheckpoint(ref, ac.signal);
      setInfo(i);
      setSpec(defaultSpec(i.config));
      setPhase({ kind: 'inspected' });
    } catch (e) {
      if ((e as Error).name === 'AbortError') return;
      setError(describe(e));
      setPhase({ kind: 'idle' });
    }
  };

  const onMessage = useCallback((m: FromWorker) => {
    switch (m.type) {
      case 'log':
        return;
      case 'fallback':
        setNotice(`WebGPU could not run this graph (${m.reason}); running on WASM instead.`);
        return;
      case 'loaded':
        setLoadedDevice(m.device);
        loadWaiters.current?.resolve();
        loadWaiters.current = null;
        return;
      case 'stage':
        if (m.id === runIdRef.current) setPhase({ kind: 'running', stage: m.stage });
        return;
      case 'step':
        if (m.id !== runIdRef.current) return;
        setStepsSeen((s) => [...s, { index: m.index, total: m.total, timestep: m.timestep, shape: m.shape, latents: m.latents, forwardMs: m.forwardMs }]);
        return;
      case 'done':
        if (m.id !== runIdRef.current) return;
        setResult({ shape: m.shape, sample: m.sample, timings: m.timings, provider: m.provider });
        setPhase({ kind: 'ready' });
        return;
      case 'error':
        if (m.id === null && loadWaiters.current) {
          loadWaiters.current.reject(new Error(m.message));
          loadWaiters.current = null;
          return;
        }
        if (m.id !== null && m.id !== runIdRef.current) return;
        setError(m.message);
        setPhase({ kind: 'ready' });
    }
  }, []);

  /** downloads what is missing into the cache, then loads the model in a fresh worker */
  const load = async (): Promise<boolean> => {
    if (!info || !device) return false;
    setError(null);
    setNotice(null);
    {
      // weights not in the cache are downloaded; config.json and the index are refreshed
      const ac = new AbortController();
      abortRef.current = ac;
      setPhase({ kind: 'downloading', progress: null });
      try {
        await downloadCheckpoint(info, { signal: ac.signal, onProgress: (p) => setPhase({ kind: 'downloading', progress: p }) });
        setInfo({ ...info, files: info.files.map((f) => ({ ...f, cached: true })), missingBytes: 0 });
      } catch (e) {
        setPhase({ kind: 'inspected' });
        if ((e as Error).name === 'AbortError') setNotice('Download cancelled; nothing was loaded.');
        else setError(describe(e));
        return false;
      }
    }
    stopWorker();
    setPhase({ kind: 'loading' });
    const w = new Worker(new URL('./preview.worker.ts', import.meta.url), { type: 'module', name: 'consisid-preview' });
    workerRef.current = w;
    w.onmessage = (e: MessageEvent<FromWorker>) => onMessage(e.data);
    w.onerror = (e) => {
      e.preventDefault();
      const msg = `the model worker failed: ${e.message || 'script error'}`;
      if (loadWaiters.current) {
        loadWaiters.current.reject(new Error(msg));
        loadWaiters.current = null;
      } else {
        setError(msg);
        setPhase({ kind: 'ready' });
      }
    };
    const files = ['config.json', ...(info.indexUrl ? ['diffusion_pytorch_model.safetensors.index.json'] : []), ...info.files.map((f) => f.name)];
    // WASM threads need cross-origin isolation (SharedArrayBuffer); ?threads=N overrides the default
    const asked = Number(params.get('threads'));
    const threads = Number.isInteger(asked) && asked >= 1 && asked <= 16 ? asked : Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1));
    try {
      await new Promise<void>((resolve, reject) => {
        loadWaiters.current = { resolve, reject };
        const msg: ToWorker = { type: 'load', ref: info.ref, files, device, threads: crossOriginIsolated ? threads : 1, fallback: choice === 'auto' };
        w.postMessage(msg);
      });
      setPhase({ kind: 'ready' });
      return true;
    } catch (e) {
      stopWorker();
      if (!(e instanceof CancelledError)) {
        setError(describe(e));
        setPhase({ kind: 'inspected' });
      }
      return false;
    }
  };

  const run = async () => {
    if (!info || !spec) return;
    if (!workerRef.current || loadedDevice !== device) {
      if (!(await load())) return;
    }
    const id = ++runIdRef.current;
    setError(null);
    setNotice(null);
    setStepsSeen([]);
    setResult(null);
    setPhase({ kind: 'running', stage: 'starting' });
    const request: RunRequest = { spec, mode, steps, guidance, uploads };
    const msg: ToWorker = { type: 'run', id, request };
    workerRef.current!.postMessage(msg);
  };

  const cancel = () => {
    if (phase.kind === 'downloading' || phase.kind === 'inspecting') {
      abortRef.current?.abort();
      return;
    }
    if (phase.kind === 'running' || phase.kind === 'loading') {
      runIdRef.current++;
      stopWorker();
      loadWaiters.current?.reject(new CancelledError());
      loadWaiters.current = null;
      setPhase({ kind: info ? 'inspected' : 'idle' });
      setNotice(phase.kind === 'running' ? 'Run cancelled: the worker was stopped. The next run reloads the model from the browser cache.' : 'Loading cancelled.');
    }
  };

  const clearCache = async () => {
    const n = await deleteCachedFiles();
    stopWorker();
    setNotice(`Removed ${n} cached file${n === 1 ? '' : 's'} from the browser cache.`);
    if (info) setInfo({ ...info, files: info.files.map((f) => ({ ...f, cached: false })), missingBytes: info.downloadBytes });
    setPhase(info ? { kind: 'inspected' } : { kind: 'idle' });
  };

  const busy = phase.kind === 'inspecting' || phase.kind === 'downloading' || phase.kind === 'loading' || phase.kind === 'running';
  const specErrors = info && spec ? validateSpec(info.config, { ...spec, textLength: uploads.text ? uploads.text.shape[1]! : spec.textLength }) : [];

  return (
    <div className="space-y-5">
      <PageHeader title="Model preview" description="Run a ConsisID video transformer checkpoint from the hub in this browser, on WebGPU or WebAssembly." />

      <Section title="Checkpoint">
        <form
          className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            void inspect();
          }}
        >
          <Field label="Repository">
            {(p) => (
              <>
                <input {...p} className={inputClass} value={repoId} onChange={(e) => setRepoId(e.target.value)} list="preview-demo-repos" placeholder="owner/name" required autoComplete="off" />
                <datalist id="preview-demo-repos">
                  {DEMO_REPOS.map((r) => (
                    <option key={r} value={r} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
          <Field label="Subfolder">{(p) => <input {...p} className={inputClass} value={subfolder} onChange={(e) => setSubfolder(e.target.value)} autoComplete="off" />}</Field>
          <Field label="Revision">{(p) => <input {...p} className={inputClass} value={revision} onChange={(e) => setRevision(e.target.value)} autoComplete="off" />}</Field>
          <Button type="submit" variant="primary" disabled={busy}>
            Inspect
          </Button>
        </form>
        {phase.kind === 'inspecting' && <p className="mt-3 text-sm" role="status">Reading config.json and the safetensors headers…</p>}
        {info && <CheckpointSummary info={info} />}
      </Section>

      <Section title="Execution provider" testId="provider-panel">
        <p className="text-sm" data-testid="provider-reason">
          {probe ? probe.reason : 'Checking for WebGPU…'}
        </p>
        {probe?.adapter && (
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400" data-testid="adapter-info">
            Adapter: vendor {probe.adapter.vendor || '—'}, architecture {probe.adapter.architecture || '—'}, device {probe.adapter.device || '—'}
            {probe.adapter.description ? `, ${probe.adapter.description}` : ''}
          </p>
        )}
        <div className="mt-3 max-w-xs">
          <Field label="Provider" hint={choice === 'auto' ? 'Automatic: WebGPU when an adapter is available (falling back to WASM if WebGPU cannot run the graph), else WASM.' : `Forced: ${choice === 'webgpu' ? 'WebGPU' : 'WASM'}.`}>
            {(p) => (
              <select {...p} className={inputClass} value={choice} disabled={busy} onChange={(e) => setChoice(e.target.value as ProviderChoice)}>
                <option value="auto">Automatic{probe ? ` (${probe.webgpu ? 'WebGPU' : 'WASM'})` : ''}</option>
                <option value="webgpu" disabled={probe ? !probe.webgpu : false}>
                  WebGPU{probe && !probe.webgpu ? ' (not available)' : ''}
                </option>
                <option value="wasm">WASM</option>
              </select>
            )}
          </Field>
        </div>
      </Section>

      {info && spec && (
        <Section title="Inputs">
          <InputsForm info={info} spec={spec} setSpec={setSpec} uploads={uploads} setUploads={setUploads} uploadError={uploadError} setUploadError={setUploadError} disabled={busy} />
          <div className="mt-4 grid gap-3 sm:grid-cols-3">
            <Field label="Run mode">
              {(p) => (
                <select {...p} className={inputClass} value={mode} disabled={busy} onChange={(e) => setMode(e.target.value as 'forward' | 'denoise')}>
                  <option value="forward">One forward pass</option>
                  <option value="denoise">Denoising loop (DDIM)</option>
                </select>
              )}
            </Field>
            {mode === 'denoise' && (
              <>
                <NumberField label="Steps" value={steps} min={1} max={50} onChange={setSteps} disabled={busy} />
                <NumberField label="Guidance scale" value={guidance} min={1} max={20} step={0.5} onChange={setGuidance} hint="1 turns classifier-free guidance off; above 1 runs an unconditional pass too." disabled={busy} />
              </>
            )}
          </div>
          {specErrors.length > 0 && (
            <ul className="mt-3 list-disc pl-5 text-sm text-red-700 dark:text-red-400" role="alert">
              {specErrors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
        </Section>
      )}

      {info && (
        <Section title="Run the model">
          <div className="flex flex-wrap items-center gap-2">
            {info.missingBytes > 0 && (
              <Button onClick={() => void load()} disabled={busy || !device}>
                Download {formatBytes(info.missingBytes)}
              </Button>
            )}
            <Button variant="primary" onClick={() => void run()} disabled={busy || !device || specErrors.length > 0 || (mode === 'denoise' && (!Number.isInteger(steps) || steps < 1 || steps > 50))}>
              {mode === 'forward' ? 'Run forward pass' : `Run ${steps} denoising steps`}
            </Button>
            <Button variant="danger" onClick={cancel} disabled={!busy || phase.kind === 'inspecting'}>
              Cancel
            </Button>
            <Button variant="ghost" onClick={() => void clearCache()} disabled={busy}>
              Clear browser cache
            </Button>
          </div>
          <PhaseLine phase={phase} device={device} loadedDevice={loadedDevice} />
        </Section>
      )}

      {notice && (
        <p className="text-sm" role="status" data-testid="preview-notice">
          {notice}
        </p>
      )}
      {error && (
        <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100" data-testid="preview-error">
          <p className="font-semibold">The preview failed</p>
          <p className="mt-1 whitespace-pre-wrap break-words">{error}</p>
        </div>
      )}

      {(stepsSeen.length > 0 || result) && <OutputView steps={stepsSeen} result={result} meta={{ repoId: (info?.ref ?? ref).repoId, revision: (info?.ref ?? ref).revision, subfolder: (info?.ref ?? ref).subfolder, mode, spec }} />}
    </div>
  );
}

function PhaseLine({ phase, device, loadedDevice }: { phase: Phase; device: Device | null; loadedDevice: Device | null }) {
  if (phase.kind === 'downloading') {
    const p = phase.progress;
    const pct = p && p.overallTotal > 0 ? Math.round((100 * p.overallLoaded) / p.overallTotal) : 0;
    return (
      <div className="mt-3 space-y-1" data-testid="download-progress">
        <label className="block text-sm" htmlFor="preview-download-progress">
          Downloading {p ? `${p.file}: ${formatBytes(p.overallLoaded)} of ${formatBytes(p.overallTotal)}` : '…'}
        </label>
        <progress id="preview-download-progress" className="w-full" max={100} value={pct}>
          {pct}%
        </progress>
      </div>
    );
  }
  const text =
    phase.kind === 'loading'
      ? `Loading the model from the browser cache on ${device === 'webgpu' ? 'WebGPU' : 'WASM'}…`
      : phase.kind === 'running'
        ? `Running: ${phase.stage}…`
        : loadedDevice
          ? `Model loaded on ${loadedDevice === 'webgpu' ? 'WebGPU' : 'WASM'}.`
          : 'The model loads when you run it.';
  return (
    <p className="mt-3 text-sm" role="status" data-testid="preview-status">
      {text}
    </p>
  );
}

const KEY_CONFIG = ['num_layers', 'num_attention_heads', 'attention_head_dim', 'in_channels', 'out_channels', 'text_embed_dim', 'time_embed_dim', 'patch_size', 'sample_frames', 'sample_height', 'sample_width', 'max_text_seq_length', 'use_rotary_positional_embeddings', 'is_train_face'] as const;

/** bytes the origin may still store (navigator.storage.estimate), null when the browser does not say */
function useStorageRoom(deps: unknown): number | null {
  const [room, setRoom] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    void navigator.storage
      ?.estimate?.()
      .then((e) => live && setRoom(e.quota !== undefined && e.usage !== undefined ? Math.max(0, e.quota - e.usage) : null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [deps]);
  return room;
}

function CheckpointSummary({ info }: { info: CheckpointInfo }) {
  const c = info.config;
  const room = useStorageRoom(info);
  const dtypes = Object.entries(info.dtypes)
    .map(([d, n]) => `${d}${Object.keys(info.dtypes).length > 1 ? ` (${((100 * n) / info.params).toFixed(0)}%)` : ''}`)
    .join(', ');
  return (
    <div className="mt-4 space-y-3" data-testid="checkpoint-summary">
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-slate-600 dark:text-slate-400">Parameters</dt>
          <dd className="font-medium" data-testid="param-count">
            {info.params.toLocaleString('en')}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600 dark:text-slate-400">Weight dtype</dt>
          <dd className="font-medium" data-testid="weight-dtype">
            {dtypes}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600 dark:text-slate-400">Download size</dt>
          <dd className="font-medium" data-testid="download-size">
            {formatBytes(info.downloadBytes)} in {info.files.length} file{info.files.length === 1 ? '' : 's'}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600 dark:text-slate-400">Browser cache</dt>
          <dd className="font-medium" data-testid="cache-state">
            {info.missingBytes === 0 ? 'all files cached' : info.files.some((f) => f.cached) ? `${formatBytes(info.missingBytes)} to download` : 'not cached'}
          </dd>
        </div>
      </dl>
      {room !== null && info.missingBytes > room && (
        <p className="text-sm text-amber-800 dark:text-amber-300" role="status">
          The browser lets this site store about {formatBytes(room)} more, less than the {formatBytes(info.missingBytes)} to download: the weights may not stay cached.
        </p>
      )}
      <table className="w-full text-left text-xs">
        <caption className="sr-only">Weight files</caption>
        <thead>
          <tr className="text-slate-600 dark:text-slate-400">
            <th scope="col" className="py-1 pr-3 font-medium">File</th>
            <th scope="col" className="py-1 pr-3 font-medium">Size</th>
            <th scope="col" className="py-1 pr-3 font-medium">Tensors</th>
            <th scope="col" className="py-1 pr-3 font-medium">Cached</th>
          </tr>
        </thead>
        <tbody>
          {info.files.map((f) => (
            <tr key={f.name} className="border-t border-slate-200 dark:border-slate-700">
              <td className="py-1 pr-3 font-mono">{f.name}</td>
              <td className="py-1 pr-3">{formatBytes(f.size)}</td>
              <td className="py-1 pr-3">{f.tensors}</td>
              <td className="py-1 pr-3">{f.cached ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="grid gap-x-6 gap-y-0.5 text-xs sm:grid-cols-2 lg:grid-cols-3" data-testid="config-summary">
        {KEY_CONFIG.map((k) => (
          <div key={k} className="flex justify-between gap-2">
            <dt className="min-w-0 break-all font-mono text-slate-600 dark:text-slate-400">{k}</dt>
            <dd className="font-mono">{String(c[k])}</dd>
          </div>
        ))}
      </dl>
      <details className="text-xs">
        <summary className="cursor-pointer">Full config.json</summary>
        <pre className="mt-2 max-h-64 overflow-auto rounded bg-slate-100 p-2 dark:bg-slate-800">{JSON.stringify(info.rawConfig, null, 2)}</pre>
      </details>
    </div>
  );
}

function InputsForm({
  info,
  spec,
  setSpec,
  uploads,
  setUploads,
  uploadError,
  setUploadError,
  disabled,
}: {
  info: CheckpointInfo;
  spec: InputSpec;
  setSpec(s: InputSpec): void;
  uploads: Uploads;
  setUploads(u: Uploads): void;
  uploadError: string | null;
  setUploadError(e: string | null): void;
  disabled: boolean;
}) {
  const c = info.config;
  const l = inputLimits(c);
  const set = (k: keyof InputSpec) => (v: number) => setSpec({ ...spec, [k]: v });
  const readUpload = async (file: File | undefined, kind: 'text' | 'identity') => {
    setUploadError(null);
    if (!file) return;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (kind === 'text') setUploads({ ...uploads, text: parseTextUpload(bytes, file.name, c) });
      else setUploads({ ...uploads, ...parseIdentityUpload(bytes, file.name, c) });
    } catch (e) {
      setUploadError(describe(e));
    }
  };
  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <NumberField label="Latent frames" value={spec.frames} {...l.frames} onChange={set('frames')} disabled={disabled || l.fixedSize} />
        <NumberField label="Latent height" value={spec.height} {...l.height} onChange={set('height')} disabled={disabled || l.fixedSize} />
        <NumberField label="Latent width" value={spec.width} {...l.width} onChange={set('width')} disabled={disabled || l.fixedSize} />
        <NumberField label="Text length" value={uploads.text ? uploads.text.shape[1]! : spec.textLength} {...l.textLength} onChange={set('textLength')} disabled={disabled || Boolean(uploads.text)} />
        <NumberField label="Seed" value={spec.seed} min={0} max={4294967295} onChange={set('seed')} disabled={disabled} />
        <NumberField label="Timestep" value={spec.timestep} {...l.timestep} onChange={set('timestep')} disabled={disabled} hint="Forward pass only" />
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Limits from the config: up to {l.frames.max} latent frames of {l.height.max} × {l.width.max} (multiples of patch_size {c.patch_size}), up to {l.textLength.max} text tokens
        {l.fixedSize ? '; learned positional embeddings fix the latent size' : ''}
        {c.use_rotary_positional_embeddings ? '; rotary tables are computed for the chosen size' : ''}.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Text embeddings" hint={uploads.text ? `Uploaded: (${uploads.text.shape.join(', ')})` : `Random from the seed, or upload a .safetensors with encoder_hidden_states (1, L, ${c.text_embed_dim}).`}>
          {(p) => (
            <div className="flex items-center gap-2">
              <input {...p} type="file" accept=".safetensors" className="text-sm" disabled={disabled} onChange={(e) => void readUpload(e.target.files?.[0], 'text')} />
              {uploads.text && (
                <Button variant="ghost" onClick={() => setUploads({ ...uploads, text: undefined })}>
                  Use random
                </Button>
              )}
            </div>
          )}
        </Field>
        {c.is_train_face && (
          <Field label="Identity inputs" hint={uploads.idCond ? `Uploaded: id_cond (${uploads.idCond.shape.join(', ')}), ${uploads.idVitHidden?.length} id_vit_hidden` : `Random from the seed, or upload a .safetensors with id_cond (1, ${c.LFE_id_dim}) and id_vit_hidden.0..${c.LFE_num_scale - 1} (1, T, ${c.LFE_vit_dim}).`}>
            {(p) => (
              <div className="flex items-center gap-2">
                <input {...p} type="file" accept=".safetensors" className="text-sm" disabled={disabled} onChange={(e) => void readUpload(e.target.files?.[0], 'identity')} />
                {uploads.idCond && (
                  <Button variant="ghost" onClick={() => setUploads({ ...uploads, idCond: undefined, idVitHidden: undefined })}>
                    Use random
                  </Button>
                )}
              </div>
            )}
          </Field>
        )}
      </div>
      {c.is_train_face && !uploads.idCond && (
        <div className="max-w-xs">
          <NumberField label="ViT tokens per identity scale" value={spec.vitTokens ?? 577} min={1} max={1024} onChange={set('vitTokens')} disabled={disabled} />
        </div>
      )}
      {uploadError && (
        <p className="text-sm text-red-700 dark:text-red-400" role="alert">
          {uploadError}
        </p>
      )}
    </div>
  );
}

