// The execution provider panel: what WebGPU probing found, the user's choice of provider, and the
// weight precision (with the weight bytes each one holds).
import { Field, inputClass } from '../../../components/ui/field.tsx';
import { formatBytes } from '../../../components/ui/format.ts';
import { Select } from '../../../components/ui/select.tsx';
import { PRECISIONS, type ProviderChoice, type ProviderProbe } from '../provider.ts';
import type { Preview } from '../use-preview.ts';
import type { Device } from '../worker/protocol.ts';
import { Section } from './section.tsx';
import type { WeightPrecision } from '../../../model/index.ts';

function precisionHint(
  device: Device | null,
  probe: ProviderProbe | null,
  weights: WeightPrecision,
  errorVsFloat32: number | undefined,
): string {
  const measured =
    errorVsFloat32 === undefined
      ? ''
      : ` Up to ${errorVsFloat32.toExponential(1)} off float32 on the checkpoints measured.`;
  const made =
    weights === 'float32'
      ? 'As the checkpoint holds them (float16 and bfloat16 files run in float32).'
      : `Made from the checkpoint's weights when the session is created; the download is the checkpoint either way.${measured}`;
  if (device !== 'webgpu' || !probe) return made;
  return probe.shaderF16
    ? `${made} This adapter has shader-f16: WebGPU runs float16 by default.`
    : `${made} This adapter has no shader-f16: WebGPU runs float32 (float16 would run on WASM).`;
}

export function ProviderPanel({ preview }: { preview: Preview }) {
  const { probe, device, weights, busy: disabled } = preview.state;
  const { choice, choose: onChoice, choosePrecision: onWeights } = preview;
  const { fits, answer } = preview.fit;
  const hint =
    choice === 'auto'
      ? 'Automatic: WebGPU when an adapter is available (falling back to WASM if WebGPU cannot run the graph), else WASM.'
      : `Forced: ${choice === 'webgpu' ? 'WebGPU' : 'WASM'}.`;
  return (
    <Section title="Execution provider" testId="provider-panel">
      <p className="text-sm" data-testid="provider-reason">
        {probe ? probe.reason : 'Checking for WebGPU…'}
      </p>
      {probe?.adapter && (
        <p className="mt-1 text-xs text-muted" data-testid="adapter-info">
          Adapter: vendor {probe.adapter.vendor || '—'}, architecture {probe.adapter.architecture || '—'}, device{' '}
          {probe.adapter.device || '—'}
          {probe.adapter.description ? `, ${probe.adapter.description}` : ''}; shader-f16{' '}
          {probe.shaderF16 ? 'yes' : 'no'}
        </p>
      )}
      <div className="mt-3 grid max-w-2xl gap-3 sm:grid-cols-2">
        <Field label="Provider" hint={hint}>
          {(p) => (
            <select
              {...p}
              className={inputClass}
              value={choice}
              disabled={disabled}
              onChange={(e) => onChoice(e.target.value as ProviderChoice)}
            >
              <option value="auto">Automatic{probe ? ` (${probe.webgpu ? 'WebGPU' : 'WASM'})` : ''}</option>
              <option value="webgpu" disabled={probe ? !probe.webgpu : false}>
                WebGPU{probe && !probe.webgpu ? ' (not available)' : ''}
              </option>
              <option value="wasm">WASM</option>
            </select>
          )}
        </Field>
        <Field label="Weights" hint={precisionHint(device, probe, weights, answer?.errorVsFloat32[weights])}>
          {(p) => (
            <Select
              {...p}
              options={PRECISIONS.map((w) => {
                const f = fits?.find((r) => r.weights === w);
                return {
                  value: w,
                  label: `${w}${f ? ` (${formatBytes(f.weightBytes)}${f.fits ? '' : ', does not fit'})` : ''}`,
                };
              })}
              value={weights}
              disabled={disabled}
              onValueChange={onWeights}
              data-testid="precision"
            />
          )}
        </Field>
      </div>
    </Section>
  );
}
