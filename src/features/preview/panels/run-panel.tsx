// The run panel: download, run, cancel, clear the cache; and one line saying what is happening.
import { Button } from '../../../components/ui/button.tsx';
import { formatBytes } from '../../../components/ui/format.ts';
import type { PanelProps, Preview } from '../use-preview.ts';
import { deviceName } from '../worker/protocol.ts';
import { Section } from './section.tsx';

export function RunPanel({ preview, request }: PanelProps) {
  const { phase, busy, device, weights } = preview.state;
  const { offer, runBlocked } = preview;
  const chosen = preview.fit.chosen;
  // the chosen precision does not fit: download and run are off, and this says why
  const refusal = chosen && !chosen.fits ? `${weights} does not fit: ${chosen.reasons.join('; ')}` : null;
  return (
    <Section title="Run the model">
      <div className="flex flex-wrap items-center gap-2">
        {offer && 'bytes' in offer && (
          <Button onClick={preview.download} disabled={busy || !device || refusal !== null}>
            Download {formatBytes(offer.bytes)}
          </Button>
        )}
        {offer && 'nothing' in offer && (
          <span className="text-sm" data-testid="download-offer">
            {offer.nothing}
          </span>
        )}
        <Button variant="primary" onClick={preview.run} disabled={busy || !device || runBlocked}>
          {request.mode === 'forward' ? 'Run forward pass' : `Run ${request.steps} denoising steps`}
        </Button>
        <Button
          variant="danger"
          onClick={preview.cancel}
          disabled={!busy || phase.kind === 'inspecting' || phase.kind === 'clearing'}
        >
          Cancel
        </Button>
        <Button variant="ghost" onClick={preview.clearCache} disabled={busy}>
          Clear browser cache
        </Button>
      </div>
      {refusal && (
        <p className="mt-3 text-sm text-accent" role="alert" data-testid="run-refused">
          {refusal}. Choose a precision that fits (see the table above), or another provider.
        </p>
      )}
      <PhaseLine preview={preview} />
    </Section>
  );
}

function PhaseLine({ preview: { state, loadedDevice } }: { preview: Preview }) {
  const { phase, device } = state;
  if (phase.kind === 'loading' && phase.step === 'download') {
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
  const loading =
    phase.kind === 'loading' && `Loading the model on ${deviceName(device)}${phase.stage ? ` (${phase.stage})` : ''}`;
  const text = loading
    ? phase.fetched
      ? `${loading}: ${formatBytes(phase.fetched.loaded)} of ${formatBytes(phase.fetched.total)} streamed from the hub…`
      : // nothing streamed yet: from the cache, or before the first downloaded chunk arrives
        `${loading}…`
    : phase.kind === 'running'
      ? `Running: ${phase.stage}…`
      : phase.kind === 'clearing'
        ? 'Clearing the browser cache…'
        : loadedDevice
          ? `Model loaded on ${deviceName(loadedDevice)}.`
          : 'The model loads when you run it.';
  return (
    <p className="mt-3 text-sm" role="status" data-testid="preview-status">
      {text}
    </p>
  );
}
