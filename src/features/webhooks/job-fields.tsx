import { Field, inputClass } from '../../components/ui/field.tsx';
import { FLAVORS } from '../../hub/schemas/index.ts';
import type { FieldErrors, JobDraft } from './form-model.ts';
import { KeyValueEditor } from './key-value-editor.tsx';
import { StoredJobNotice } from './stored-job-notice.tsx';
import { VolumesEditor } from './volumes-editor.tsx';

/** Every field of a webhook job: what runs, where, with which resources and limits. */
export function JobFields({
  job,
  onChange,
  errors,
  stored,
  onKeepStored,
}: {
  job: JobDraft;
  onChange(job: JobDraft): void;
  errors: FieldErrors;
  /** Set when editing a stored job: what the hub does not return, and whether the user changed the job. */
  stored: { touched: boolean; hidden: string[]; secrets: string[] } | null;
  onKeepStored(): void;
}) {
  const set = (patch: Partial<JobDraft>) => onChange({ ...job, ...patch });
  return (
    <div className="space-y-4" data-testid="job-fields">
      {stored && <StoredJobNotice {...stored} onKeep={onKeepStored} />}
      {errors.job && (
        <p role="alert" className="text-xs text-danger">
          {errors.job}
        </p>
      )}
      <fieldset className="flex gap-4 text-sm">
        <legend className="sr-only">Job runs</legend>
        <label className="flex items-center gap-1.5">
          <input
            type="radio"
            name="job-source"
            checked={job.source === 'docker'}
            onChange={() => set({ source: 'docker' })}
          />{' '}
          From a Docker image
        </label>
        <label className="flex items-center gap-1.5">
          <input
            type="radio"
            name="job-source"
            checked={job.source === 'space'}
            onChange={() => set({ source: 'space' })}
          />{' '}
          In a Space
        </label>
      </fieldset>
      <div className="grid gap-4 md:grid-cols-2">
        {job.source === 'docker' ? (
          <Field label="Docker image" error={errors['job.dockerImage']}>
            {(p) => (
              <input
                {...p}
                className={inputClass}
                value={job.dockerImage}
                placeholder="python:3.12"
                spellCheck={false}
                onChange={(e) => set({ dockerImage: e.target.value })}
              />
            )}
          </Field>
        ) : (
          <Field label="Space" error={errors['job.spaceId']}>
            {(p) => (
              <input
                {...p}
                className={inputClass}
                value={job.spaceId}
                placeholder="namespace/space"
                spellCheck={false}
                onChange={(e) => set({ spaceId: e.target.value })}
              />
            )}
          </Field>
        )}
        <Field label="Flavor" error={errors['job.flavor']} hint="Hardware the job runs on.">
          {(p) => (
            <select {...p} className={inputClass} value={job.flavor} onChange={(e) => set({ flavor: e.target.value })}>
              {FLAVORS.map((f) => (
                <option key={f}>{f}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Command" error={errors['job.command']} hint="One item per line, e.g. python / -c / print(1).">
          {(p) => (
            <textarea
              {...p}
              rows={3}
              wrap="off"
              className={`${inputClass} font-mono`}
              value={job.command}
              spellCheck={false}
              onChange={(e) => set({ command: e.target.value })}
            />
          )}
        </Field>
        <Field label="Arguments" error={errors['job.arguments']} hint="One argument per line.">
          {(p) => (
            <textarea
              {...p}
              rows={3}
              wrap="off"
              className={`${inputClass} font-mono`}
              value={job.arguments}
              spellCheck={false}
              onChange={(e) => set({ arguments: e.target.value })}
            />
          )}
        </Field>
        <Field label="Architecture" error={errors['job.arch']}>
          {(p) => (
            <select
              {...p}
              className={inputClass}
              value={job.arch}
              onChange={(e) => set({ arch: e.target.value as JobDraft['arch'] })}
            >
              <option value="">Default</option>
              <option value="amd64">amd64</option>
              <option value="arm64">arm64</option>
            </select>
          )}
        </Field>
        <Field label="Timeout (seconds)" error={errors['job.timeoutSeconds']} hint="Empty: no timeout.">
          {(p) => (
            <input
              {...p}
              inputMode="numeric"
              className={inputClass}
              value={job.timeoutSeconds}
              onChange={(e) => set({ timeoutSeconds: e.target.value })}
            />
          )}
        </Field>
        <Field label="Attempts" error={errors['job.attempts']} hint="N attempts retry a failed job up to N-1 times.">
          {(p) => (
            <input
              {...p}
              inputMode="numeric"
              className={inputClass}
              value={job.attempts}
              onChange={(e) => set({ attempts: e.target.value })}
            />
          )}
        </Field>
        <Field
          label="Exposed ports"
          error={errors['job.expose']}
          hint="Up to 20 ports, 1 to 65535, separated by commas."
        >
          {(p) => (
            <input
              {...p}
              className={inputClass}
              value={job.ports}
              placeholder="8080, 7860"
              onChange={(e) => set({ ports: e.target.value })}
            />
          )}
        </Field>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={job.ssh} onChange={(e) => set({ ssh: e.target.checked })} /> Enable SSH (owner
        only, with a registered SSH key)
      </label>
      <KeyValueEditor
        legend="Environment"
        rows={job.environment}
        onChange={(environment) => set({ environment })}
        error={errors['job.environment']}
        hint="Names: a letter, then at least one letter, digit or underscore. WEBHOOK_PAYLOAD is added by the hub."
      />
      <KeyValueEditor
        legend="Secrets"
        rows={job.secrets}
        onChange={(secrets) => set({ secrets })}
        error={errors['job.secrets']}
        secretValues
        {...(stored?.touched
          ? {
              hint: 'The hub never returns secret values and saving a changed job replaces them: enter each value again, or remove the secret.',
              valuePlaceholder: 'value (required again)',
            }
          : {})}
      />
      <KeyValueEditor
        legend="Labels"
        rows={job.labels}
        onChange={(labels) => set({ labels })}
        error={errors['job.labels']}
        hint="Keys 1 to 100 and values up to 100 letters, digits, dots, dashes or underscores."
      />
      <VolumesEditor rows={job.volumes} onChange={(volumes) => set({ volumes })} errors={errors} />
    </div>
  );
}
