// The model preview page: pick a ConsisID checkpoint on the hub, look at it before downloading,
// cache it in the browser, and run the transformer in a Web Worker on WebGPU or WASM. The page
// lays out its panels; usePreview() owns what they show and what they do.
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { CheckpointPanel } from './panels/checkpoint-panel.tsx';
import { FitPanel } from './panels/fit-panel.tsx';
import { InputsPanel } from './panels/inputs-panel.tsx';
import { OutputPanel } from './panels/output-panel.tsx';
import { ProviderPanel } from './panels/provider-panel.tsx';
import { RunPanel } from './panels/run-panel.tsx';
import { usePreview } from './use-preview.ts';

export function Component() {
  const preview = usePreview();
  const { phase, info, request, notice } = preview.state;
  const { steps, result, ran } = preview.output;
  return (
    <div className="space-y-5">
      <PageHeader
        title="Model preview"
        description="Run a ConsisID video transformer checkpoint from the hub in this browser, on WebGPU or WebAssembly."
      />
      <CheckpointPanel preview={preview} />
      <ProviderPanel preview={preview} />
      {info && <FitPanel preview={preview} info={info} />}
      {info && request && !info.refused && <InputsPanel preview={preview} info={info} request={request} />}
      {info && request && !info.refused && <RunPanel preview={preview} info={info} request={request} />}
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
      {(steps.length > 0 || result) && info && ran && <OutputPanel preview={preview} info={info} ran={ran} />}
    </div>
  );
}
