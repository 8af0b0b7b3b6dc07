// The run panel: download, run, cancel, clear the cache; and one line saying what is happening.
import { Button } from '../../components/ui/button.tsx';
import { formatBytes } from '../../components/ui/format.ts';
import type { DownloadOffer } from './cache-contents.ts';
import type { CheckpointInfo } from './checkpoint.ts';
import type { Phase } from './preview-state.ts';
import type { Device } from './protocol.ts';
import { Section } from './section.tsx';

export interface RunPanelProps {
  info: CheckpointInfo;
  phase: Phase;
  busy: boolean;
  /** the device a run would use; null while WebGPU is probed */
  device: Device | null;
  loadedDevice: Device | null;
  runLabel: string;
  /** why the run button is off, besides being busy */
  runBlocked: boolean;
  /** the chosen precision does not fit: download and run are off, and this says why */
  refusal: string | null;
  /** what Download fetches for the chosen precision */
  offer: DownloadOffer;
  onDownload(): void;
  onRun(): void;
  onCancel(): void;
  onClearCache(): void;
}

export function RunPanel(p: RunPanelProps) {
  return (
    <Section title="Run the model">
      <div className="flex flex-wrap items-center gap-2">
        {p.offer && 'bytes' in p.offer && (
          <Button onClick={p.onDownload} disabled={p.busy || !p.device || p.refusal !== null}>
            Download {formatBytes(p.offer.bytes)}
          </Button>
        )}
        {p.offer && 'nothing' in p.offer && (
          <span className="text-sm" data-testid="download-offer">
            {p.offer.nothing}
          </span>
        )}
        <Button variant="primary" onClick={p.onRun} disabled={p.busy || !p.device || p.runBlocked}>
          {p.runLabel}
        </Button>
        <Button
          variant="danger"
          onClick={p.onCancel}
          disabled={!p.busy || p.phase.kind === 'inspecting' || p.phase.kind === 'clearing'}
        >
          Cancel
        </Button>
        <Button variant="ghost" onClick={p.onClearCache} disabled={p.busy}>
          Clear browser cache
        </Button>
      </div>
      {p.refusal && (
        <p className="mt-3 text-sm text-accent" role="alert" data-testid="run-refused">
          {p.refusal}. Choose a precision that fits (see the table above), or another provider.
        </p>
      )}
      <PhaseLine phase={p.phase} device={p.device} loadedDevice={p.loadedDevice} />
    </Section>
  );
}

const deviceName = (d: Device | null) => (d === 'webgpu' ? 'WebGPU' : 'WASM');

function PhaseLine({
  phase,
  device,
  loadedDevice,
}: {
  phase: Phase;
  device: Device | null;
  loadedDevice: Device | null;
}) {
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
  const text =
    phase.kind === 'loading'
      ? phase.fetched
        ? `Loading the model on ${deviceName(device)}: ${formatBytes(phase.fetched.loaded)} of ${formatBytes(phase.fetched.total)} streamed from the hub…`
        : // nothing streamed yet: from the cache, or before the first downloaded chunk arrives
          `Loading the model on ${deviceName(device)}…`
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
