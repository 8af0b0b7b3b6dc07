// The execution provider panel: what WebGPU probing found, and the user's choice.
import { Field, inputClass } from '../../components/ui/field.tsx';
import type { ProviderChoice, ProviderProbe } from './provider.ts';
import { Section } from './section.tsx';

export function ProviderPanel({ probe, choice, onChoice, disabled }: { probe: ProviderProbe | null; choice: ProviderChoice; onChoice(c: ProviderChoice): void; disabled: boolean }) {
  const hint = choice === 'auto' ? 'Automatic: WebGPU when an adapter is available (falling back to WASM if WebGPU cannot run the graph), else WASM.' : `Forced: ${choice === 'webgpu' ? 'WebGPU' : 'WASM'}.`;
  return (
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
        <Field label="Provider" hint={hint}>
          {(p) => (
            <select {...p} className={inputClass} value={choice} disabled={disabled} onChange={(e) => onChoice(e.target.value as ProviderChoice)}>
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
  );
}
