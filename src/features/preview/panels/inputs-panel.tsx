// The inputs panel: latent size, text length, seed and timestep within the config's limits,
// uploaded text or identity tensors, and the run mode (one forward pass or a DDIM loop).
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Field, inputClass } from '../../../components/ui/field.tsx';
import type { CheckpointInfo } from '../checkpoint.ts';
import type { Preview } from '../use-preview.ts';
import type { RunRequest } from '../worker/protocol.ts';
import { NumberField, Section } from './section.tsx';
import type { InputSpec } from '../../../model/index.ts';

export function InputsPanel({
  preview,
  info,
  request,
}: {
  preview: Preview;
  info: CheckpointInfo;
  request: RunRequest;
}) {
  const { weights, busy: disabled, specErrors: errors } = preview.state;
  const onChange = preview.edit;
  // a float32 run is the comparison itself: the worker would skip it, so the box says so
  const comparable = weights !== 'float32';
  const set =
    <K extends keyof RunRequest>(k: K) =>
    (v: RunRequest[K]) =>
      onChange({ ...request, [k]: v });
  return (
    <Section title="Inputs">
      <SpecFields
        info={info}
        request={request}
        onChange={onChange}
        readUpload={preview.readUpload}
        disabled={disabled}
      />
      <div className="mt-4 grid gap-3 sm:grid-cols-3">
        <Field label="Run mode">
          {(p) => (
            <select
              {...p}
              className={inputClass}
              value={request.mode}
              disabled={disabled}
              onChange={(e) => set('mode')(e.target.value as RunRequest['mode'])}
            >
              <option value="forward">One forward pass</option>
              <option value="denoise">Denoising loop (DDIM)</option>
            </select>
          )}
        </Field>
        {request.mode === 'forward' && (
          <Field
            label="Compare with float32"
            hint={
              comparable
                ? 'Runs the forward pass again with float32 weights and reports the largest difference.'
                : 'For float16, int8 and int4 weights: these are float32.'
            }
          >
            {(p) => (
              <input
                {...p}
                type="checkbox"
                className="h-4 w-4"
                checked={comparable && request.compare}
                disabled={disabled || !comparable}
                onChange={(e) => set('compare')(e.target.checked)}
              />
            )}
          </Field>
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
            <Field
              label="Latents stay on the device"
              hint="Between steps the latents stay where the model runs (WebGPU: on the GPU); only the steps shown are read back."
            >
              {(p) => (
                <input
                  {...p}
                  type="checkbox"
                  className="h-4 w-4"
                  checked={request.deviceLatents !== false}
                  disabled={disabled}
                  onChange={(e) => set('deviceLatents')(e.target.checked)}
                />
              )}
            </Field>
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

function SpecFields({
  info: { config: c, limits: l },
  request,
  onChange,
  readUpload: read,
  disabled,
}: {
  info: CheckpointInfo;
  request: RunRequest;
  onChange(r: RunRequest): void;
  readUpload: Preview['readUpload'];
  disabled: boolean;
}) {
  const [uploadError, setUploadError] = useState<string | null>(null);
  const { spec, uploads } = request;
  const set = (k: keyof InputSpec) => (v: number) => onChange({ ...request, spec: { ...spec, [k]: v } });
  const setUploads = (u: RunRequest['uploads']) => onChange({ ...request, uploads: u });
  const readUpload = async (file: File | undefined, kind: 'text' | 'identity') => {
    setUploadError(null);
    if (!file) return;
    try {
      setUploads({ ...uploads, ...(await read(file, kind)) });
    } catch (e) {
      setUploadError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <NumberField
          label="Latent frames"
          value={spec.frames}
          {...l.frames}
          onChange={set('frames')}
          disabled={disabled || l.fixedSize}
        />
        <NumberField
          label="Latent height"
          value={spec.height}
          {...l.height}
          onChange={set('height')}
          disabled={disabled || l.fixedSize}
        />
        <NumberField
          label="Latent width"
          value={spec.width}
          {...l.width}
          onChange={set('width')}
          disabled={disabled || l.fixedSize}
        />
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
        <Field
          label="Text embeddings"
          hint={
            uploads.text
              ? `Uploaded: (${uploads.text.shape.join(', ')})`
              : `Random from the seed, or upload a .safetensors with encoder_hidden_states (1, L, ${c.text_embed_dim}).`
          }
        >
          {(p) => (
            <div className="flex items-center gap-2">
              <input
                {...p}
                type="file"
                accept=".safetensors"
                className="text-sm"
                disabled={disabled}
                onChange={(e) => void readUpload(e.target.files?.[0], 'text')}
              />
              {uploads.text && (
                <Button variant="ghost" onClick={() => setUploads({ ...uploads, text: undefined })}>
                  Use random
                </Button>
              )}
            </div>
          )}
        </Field>
        {c.is_train_face && (
          <Field
            label="Identity inputs"
            hint={
              uploads.idCond
                ? `Uploaded: id_cond (${uploads.idCond.shape.join(', ')}), ${uploads.idVitHidden?.length} id_vit_hidden`
                : `Random from the seed, or upload a .safetensors with id_cond (1, ${c.LFE_id_dim}) and id_vit_hidden.0..${c.LFE_num_scale - 1} (1, T, ${c.LFE_vit_dim}).`
            }
          >
            {(p) => (
              <div className="flex items-center gap-2">
                <input
                  {...p}
                  type="file"
                  accept=".safetensors"
                  className="text-sm"
                  disabled={disabled}
                  onChange={(e) => void readUpload(e.target.files?.[0], 'identity')}
                />
                {uploads.idCond && (
                  <Button
                    variant="ghost"
                    onClick={() => setUploads({ ...uploads, idCond: undefined, idVitHidden: undefined })}
                  >
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
          <NumberField
            label="ViT tokens per identity scale"
            value={spec.vitTokens ?? 577}
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
