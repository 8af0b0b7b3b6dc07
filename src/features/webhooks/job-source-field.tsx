import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useHubClient } from '../../components/session/session-context.tsx';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { jobsQuery, whoamiQuery } from '../../hub/queries.ts';
import { splitReadable } from '../../hub/tolerant-response.ts';

/** The id of a job to copy for each event, with the user's own jobs offered as suggestions. */
export function JobSourceField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange(v: string): void;
  error?: string | undefined;
}) {
  const client = useHubClient();
  const listId = useId();
  const me = useQuery(whoamiQuery(client));
  const jobs = useQuery({ ...jobsQuery(client, me.data?.name ?? ''), enabled: Boolean(me.data) });
  return (
    <Field
      label="Source job id"
      error={error}
      hint={
        jobs.data?.length
          ? 'The hub starts a copy of this job for each event. Suggestions: your jobs.'
          : 'The hub starts a copy of this job for each event.'
      }
    >
      {(p) => (
        <>
          <input
            {...p}
            list={listId}
            className={inputClass}
            value={value}
            spellCheck={false}
            onChange={(e) => onChange(e.target.value)}
          />
          <datalist id={listId}>
            {splitReadable(jobs.data).items.map((j) => (
              <option key={j.id} value={j.id}>
                {`${j.dockerImage ?? j.spaceId ?? 'job'} · ${(j.command ?? []).join(' ')} · ${j.status.stage}`}
              </option>
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}
