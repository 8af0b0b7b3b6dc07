// The inputs panel: latent size, text length, seed and timestep within the config's limits,
// uploaded text or identity tensors, and the run mode (one forward pass or a DDIM loop).
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import type { PanelProps } from '../use-preview.ts';
import type { RunRequest, Uploads } from '../worker/protocol.ts';
import { CheckField, NumberField, Section } from './section.tsx';
import type { InputSpec } from '../../../model/index.ts';

const MODES = [
  { value: 'forward', label: 'One forward pass' },
  { value: 'denoise', label: 'Denoising loop (DDIM)' },
] as const;

export function InputsPanel({ preview, info, request }: PanelProps) {
  const { weights, busy: disabled, specErrors: errors } = preview.state;
  // a float32 run is the comparison itself: the worker would skip it, so the box says so
  const comparable = weights !== 'float32';
  const set =
    <K extends keyof RunRequest>(k: K) =>
    (v: RunRequest[K]) =>
      preview.edit({ ...request, [k]: v });
  return (
    <Section title="Inputs">
      <SpecFields info={info} request={request} preview={preview} />
      <div className="mt-4 grid gap-3 sm:grid-cols-3">
        <Field label="Run mode">
          {(p) => (
            <Select {...p} options={MODES} value={request.mode} disabled={disabled} onValueChange={set('mode')} />
          )}
        </Field>
        {request.mode === 'forward' && (
          <CheckField
            label="Compare with float32"
            hint={
              comparable
                ? 'Runs the forward pass again with float32 weights and reports the largest difference.'
                : 'For float16, int8 and int4 weights: these are float32.'
            }
            checked={comparable && request.compare}
            disabled={disabled || !comparable}
            onChange={set('compare')}
          />
        )}
        {request.mode === 'denoise' && (
          <>
            <NumberField
              label="Steps"
              value={request.steps}
              min={1}
              max={50}
              onChange={set('steps')}
              disabled={disabled}
            />
            <NumberField
              label="Guidance scale"
              value={request.guidance}
              min={1}
              max={20}
              step={0.5}
              onChange={set('guidance')}
              hint="1 turns classifier-free guidance off; above 1 runs an unconditional pass too."
              disabled={disabled}
            />
            <CheckField
              label="Latents stay on the device"
              hint="Between steps the latents stay where the model runs (WebGPU: on the GPU); only the steps shown are read back."
              checked={request.deviceLatents !== false}
              disabled={disabled}
              onChange={set('deviceLatents')}
            />
          </>
        )}
      </div>
      {errors.length > 0 && (
        <ul className="mt-3 list-disc pl-5 text-sm text-danger" role="alert">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </Section>
  );
}

const SIZE_FIELDS = [
  ['Latent frames', 'frames'],
  ['Latent height', 'height'],
  ['Latent width', 'width'],
] as const;

function SpecFields({ info: { config: c, limits: l }, request, preview }: PanelProps) {
  const disabled = preview.state.busy;
  const [uploadError, setUploadError] = useState<string | null>(null);
  const { spec, uploads } = request;
  const set = (k: keyof InputSpec) => (v: number) => preview.edit({ ...request, spec: { ...spec, [k]: v } });
  const setUploads = (u: Uploads) => preview.edit({ ...request, uploads: u });
  const upload = (kind: 'text' | 'identity') => async (file: File | undefined) => {
    setUploadError(null);
    if (!file) return;
    try {
      setUploads({ ...uploads, ...(await preview.readUpload(file, kind)) });
    } catch (e) {
      setUploadError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {SIZE_FIELDS.map(([label, k]) => (
          <NumberField
            key={k}
            label={label}
            value={spec[k]}
            {...l[k]}
            onChange={set(k)}
            disabled={disabled || l.fixedSize}
          />
        ))}
        <NumberField
          label="Text length"
          value={uploads.text ? uploads.text.shape[1]! : spec.textLength}
          {...l.textLength}
          onChange={set('textLength')}
          disabled={disabled || Boolean(uploads.text)}
        />
        <NumberField
          label="Seed"
          value={spec.seed}
          min={0}
          max={4294967295}
          onChange={set('seed')}
          disabled={disabled}
        />
        <NumberField
          label="Timestep"
          value={spec.timestep}
          {...l.timestep}
          onChange={set('timestep')}
          disabled={disabled}
          hint="Forward pass only"
        />
      </div>
      <p className="text-xs text-muted">
        Limits from the config: up to {l.frames.max} latent frames of {l.height.max} × {l.width.max} (multiples of
        patch_size {c.patch_size}), up to {l.textLength.max} text tokens
        {l.fixedSize ? '; learned positional embeddings fix the latent size' : ''}
        {c.use_rotary_positional_embeddings ? '; rotary tables are computed for the chosen size' : ''}.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <UploadField
          label="Text embeddings"
          hint={
            uploads.text
              ? `Uploaded: (${uploads.text.shape.join(', ')})`
              : `Random from the seed, or upload a .safetensors with encoder_hidden_states (1, L, ${c.text_embed_dim}).`
          }
          uploaded={Boolean(uploads.text)}
          disabled={disabled}
          onFile={upload('text')}
          onRandom={() => setUploads({ ...uploads, text: undefined })}
        />
        {c.is_train_face && (
          <UploadField
            label="Identity inputs"
            hint={
              uploads.idCond
                ? `Uploaded: id_cond (${uploads.idCond.shape.join(', ')}), ${uploads.idVitHidden?.length} id_vit_hidden`
                : `Random from the seed, or upload a .safetensors with id_cond (1, ${c.LFE_id_dim}) and id_vit_hidden.0..${c.LFE_num_scale - 1} (1, T, ${c.LFE_vit_dim}).`
            }
            uploaded={Boolean(uploads.idCond)}
            disabled={disabled}
            onFile={upload('identity')}
            onRandom={() => setUploads({ ...uploads, idCond: undefined, idVitHidden: undefined })}
          />
        )}
      </div>
      {c.is_train_face && !uploads.idCond && (
        <div className="max-w-xs">
          <NumberField
            label="ViT tokens per identity scale"
            value={spec.vitTokens ?? NaN}
            min={1}
            max={1024}
            onChange={set('vitTokens')}
            disabled={disabled}
          />
        </div>
      )}
      {uploadError && (
        <p className="text-sm text-danger" role="alert">
          {uploadError}
        </p>
      )}
    </div>
  );
}

function UploadField(p: {
  label: string;
  hint: string;
  uploaded: boolean;
  disabled: boolean;
  onFile(file: File | undefined): void;
  onRandom(): void;
}) {
  return (
    <Field label={p.label} hint={p.hint}>
      {(f) => (
        <div className="flex items-center gap-2">
          <input
            {...f}
            type="file"
            accept=".safetensors"
            className="text-sm"
            disabled={p.disabled}
            onChange={(e) => p.onFile(e.target.files?.[0])}
          />
          {p.uploaded && (
            <Button variant="ghost" onClick={p.onRandom}>
              Use random
            </Button>
          )}
        </div>
      )}
    </Field>
  );
}
