import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { Id24 } from '../../hub/schemas/index.ts';

/** Opens a resource group by its id, for a hub that does not list them. */
export function OpenGroupForm({ current, onOpen }: { current: string | null; onOpen(id: string): void }) {
  const [id, setId] = useState(current ?? '');
  const [error, setError] = useState<string | null>(null);
  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = Id24.safeParse(id.trim().toLowerCase());
    if (!parsed.success)
      return setError('A resource group id is 24 hexadecimal characters, e.g. 66670e5163145ca562cb1988');
    setError(null);
    onOpen(parsed.data);
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Open a resource group" className="space-y-2">
      <Field label="Resource group id" error={error} hint="The last part of the group's settings address on the hub.">
        {(p) => (
          <input
            {...p}
            className={`${inputClass} font-mono`}
            value={id}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setId(e.target.value)}
          />
        )}
      </Field>
      <Button type="submit">Open group</Button>
    </form>
  );
}
