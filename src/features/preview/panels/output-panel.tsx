// The output panel: latent frames as images (per step as they arrive), a frame scrubber with
// playback, per-channel statistics, the timing breakdown and the provider used; Decode turns the
// latents into the clip the checkpoint's vae/ makes, which replaces them.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { formatBytes } from '../../../components/ui/format.ts';
import { saveBlob } from '../../../components/ui/save-text.ts';
import type { CheckpointInfo } from '../checkpoint.ts';
import type { Preview } from '../use-preview.ts';
import type { LatentView, RunRequest, Timings } from '../worker/protocol.ts';
import { ClipPlayer } from './clip-player.tsx';
import { Section, TableHead } from './section.tsx';

const ms = (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms`;
const sumMs = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** frame `frame` of a latent view (the last one where it has fewer) */
type FrameProps = { view: LatentView; frame: number; label: string; size?: number };
function FrameCanvas({ view, frame, label, size = 256 }: FrameProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const h = view.shape[3] ?? 1;
  const w = view.shape[4] ?? 1;
  const rgba = view.frames[Math.min(frame, view.frames.length - 1)]!;
  useEffect(() => {
    ref.current?.getContext('2d')?.putImageData(new ImageData(rgba, w, h), 0, 0);
  }, [rgba, h, w]);
  const scale = Math.max(1, Math.floor(size / Math.max(h, w)));
  return (
    <canvas
      ref={ref}
      width={w}
      height={h}
      role="img"
      aria-label={label}
      style={{ width: w * scale, height: h * scale, imageRendering: 'pixelated' }}
      className="rounded border border-border-strong"
    />
  );
}

export function OutputPanel({ preview, info, ran }: { preview: Preview; info: CheckpointInfo; ran: RunRequest }) {
  const { steps, result, clip } = preview.output;
  const views = useMemo(() => {
    // steps sent without latents (a later one came within the frame interval) have nothing to draw
    const v = steps.flatMap((s) =>
      s.view ? [{ label: `step ${s.index + 1} of ${s.total} (t = ${s.timestep})`, view: s.view }] : [],
    );
    if (result && !steps.length) v.push({ label: 'forward output', view: result.view });
    return v;
  }, [steps, result]);
  const [stepSel, setStepSel] = useState<number | null>(null);
  const [frame, setFrame] = useState(0);
  const [playing, setPlaying] = useState(false);
  const current = views[stepSel ?? views.length - 1];
  const frames = current?.view.shape[1] ?? 1;
  const f = Math.min(frame, frames - 1);
  useEffect(() => {
    if (!playing || frames < 2) return;
    const t = setInterval(() => setFrame((x) => (x + 1) % frames), 250);
    return () => clearInterval(t);
  }, [playing, frames]);
  const stats = current?.view.stats ?? [];
  const summary = result && {
    ...{ provider: result.provider, weights: result.weights, segments: result.segments, mode: ran.mode },
    ...{ ...result.summary, timings: result.timings, readback: result.readback },
    ...(result.compared && 'error' in result.compared ? { errorVsFloat32: result.compared.error } : {}),
  };

  const download = async () => {
    if (!result) return;
    const { repoId: repo_id, revision, subfolder } = info.ref;
    const spec = JSON.stringify(ran.spec);
    const metadata = { repo_id, revision, subfolder, mode: ran.mode, provider: result.provider, spec };
    const bytes = await preview.outputFile(result.sample, result.shape, metadata);
    saveBlob(
      new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }),
      'consisid-output.safetensors',
    );
  };

  if (!current) return null;
  return (
    <Section title="Output" className="space-y-4">
      {result && (
        <p className="text-sm">
          Execution provider used: <strong data-testid="provider-used">{result.provider}</strong>, weights{' '}
          {result.weights}
          {result.segments > 1 && (
            <>
              , in <span data-testid="segments-used">{result.segments}</span> segments (sessions of consecutive blocks)
            </>
          )}
        </p>
      )}
      {result?.compared &&
        ('error' in result.compared ? (
          <p className="text-sm">
            Max relative error against float32 (max |out − float32| / max |float32|):{' '}
            <strong data-testid="precision-error">{result.compared.error.toExponential(2)}</strong>
            {` (the float32 forward took ${ms(result.compared.forwardMs)})`}
          </p>
        ) : (
          <p className="text-sm" role="status">
            The float32 forward to compare with failed ({result.compared.failed}); the output below is the{' '}
            {result.weights} run's.
          </p>
        ))}
      {result && <DecodeBar preview={preview} vae={info.vae} />}
      <div className="flex flex-wrap items-start gap-6">
        <div className="space-y-2">
          {clip && <ClipPlayer clip={clip} fileName={`${info.ref.repoId.replace('/', '-')}-decoded`} />}
          {!clip && (
            <FrameCanvas view={current.view} frame={f} label={`Latent frame ${f + 1} of ${frames}, ${current.label}`} />
          )}
          <div className={clip ? 'hidden' : 'flex items-center gap-2'}>
            <label htmlFor="preview-frame" className="text-sm">
              Frame {f + 1} / {frames}
            </label>
            <input
              id="preview-frame"
              type="range"
              min={0}
              max={frames - 1}
              value={f}
              onChange={(e) => setFrame(Number(e.target.value))}
              disabled={frames < 2}
            />
            <Button variant="ghost" onClick={() => setPlaying((p) => !p)} disabled={frames < 2} aria-pressed={playing}>
              {playing ? 'Pause' : 'Play'}
            </Button>
          </div>
          {views.length > 1 && (
            <div className="flex items-center gap-2">
              <label htmlFor="preview-step" className="text-sm">
                {current.label}
              </label>
              <input
                id="preview-step"
                type="range"
                min={0}
                max={views.length - 1}
                value={stepSel ?? views.length - 1}
                onChange={(e) =>
                  setStepSel(Number(e.target.value) === views.length - 1 ? null : Number(e.target.value))
                }
              />
            </div>
          )}
          {steps.length > 0 && (
            <ol className="flex flex-wrap gap-1" aria-label="Denoising steps" data-testid="step-list">
              {steps.map((s) => (
                <li key={s.index} className="text-xs">
                  <span className="sr-only">{`step ${s.index + 1}, ${ms(s.forwardMs)}`}</span>
                  {s.view && <FrameCanvas view={s.view} frame={f} label={`step ${s.index + 1} thumbnail`} size={64} />}
                </li>
              ))}
            </ol>
          )}
        </div>
        {result && <TimingTable timings={result.timings} />}
      </div>
      <details className="text-xs">
        <summary className="cursor-pointer text-sm">Per-channel statistics ({stats.length} channels)</summary>
        <table className="mt-2 text-left font-mono" data-testid="channel-stats">
          <caption className="sr-only">Per-channel statistics</caption>
          <TableHead heads={['channel', 'mean', 'std', 'min', 'max']} />
          <tbody>
            {stats.map((s) => (
              <tr key={s.channel}>
                {[s.channel, ...[s.mean, s.std, s.min, s.max].map((v) => v.toFixed(4))].map((v, i) => (
                  <td key={i} className="pr-4">
                    {v}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {summary && (
        <div className="space-y-2">
          <Button onClick={() => void download()}>Download output (.safetensors)</Button>
          <details className="text-xs">
            <summary className="cursor-pointer text-sm">Output summary (JSON)</summary>
            <pre className="mt-2 overflow-auto rounded bg-surface-muted p-2" data-testid="output-summary">
              {JSON.stringify(summary)}
            </pre>
          </details>
        </div>
      )}
    </Section>
  );
}

/** Decode: the run's latents through the checkpoint's vae/ (the same button cancels it), its progress per batch */
function DecodeBar({ preview, vae }: { preview: Preview; vae: CheckpointInfo['vae'] }) {
  const { phase, busy } = preview.state;
  const { clip } = preview.output;
  const decoding = phase.kind === 'decoding';
  const status =
    'error' in vae
      ? `No decode: ${vae.error}`
      : decoding
        ? `Decoding with ${vae.ref.subfolder}/: ${phase.batch ? `batch ${phase.batch.done} of ${phase.batch.total}` : 'loading the VAE'}…`
        : clip
          ? `Decoded ${clip.frames.length} frames of ${clip.width} x ${clip.height} with ${vae.ref.subfolder}/.`
          : `Decode the latents into frames with ${vae.ref.subfolder}/ (${formatBytes(vae.bytes)}).`;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button onClick={decoding ? preview.cancel : preview.decode} disabled={(busy && !decoding) || 'error' in vae}>
        {decoding ? 'Cancel decode' : 'Decode'}
      </Button>
      <span className="text-sm" role="status" data-testid="decode-status">
        {status}
      </span>
    </div>
  );
}

function TimingTable({ timings: t }: { timings: Timings }) {
  const f = t.forwardMs;
  const rows: [string, string][] = [
    ['load weights (cache → memory)', ms(t.loadMs)],
    ...(t.rotaryMs > 0 ? [['rotary tables', ms(t.rotaryMs)] as [string, string]] : []),
    ['graph build', t.graphBuildMs.length ? ms(sumMs(t.graphBuildMs)) : 'reused'],
    ['session creation', t.sessionCreateMs.length ? ms(sumMs(t.sessionCreateMs)) : 'reused'],
  ];
  if (f.length === 1) rows.push(['forward', ms(f[0]!)]);
  else if (f.length > 1) {
    const rest = [...f.slice(1)].sort((a, b) => a - b);
    rows.push(
      ['forward, first', ms(f[0]!)],
      [`forward, median of the other ${rest.length}`, ms(rest[Math.floor(rest.length / 2)]!)],
      [`forward, all ${f.length}`, ms(sumMs(f))],
    );
  }
  return (
    <div className="space-y-1">
      <table className="text-left text-sm" data-testid="timings">
        <caption className="mb-1 text-left font-medium">Timing</caption>
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k}>
              <th scope="row" className="pr-4 font-normal text-muted">
                {k}
              </th>
              <td className="font-mono">{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {f.length > 1 && (
        <details className="text-xs">
          <summary className="cursor-pointer">Each forward pass</summary>
          <ol className="mt-1 font-mono" data-testid="forward-times">
            {f.map((v, i) => (
              <li key={i}>
                {i + 1}: {ms(v)}
              </li>
            ))}
          </ol>
        </details>
      )}
    </div>
  );
}
