import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/field.tsx';
import { WatchItem, type WatchItem as Item } from '../../hub/schemas/index.ts';

const placeholders: Record<Item['type'], string> = { user: 'username', org: 'organization name', repo: 'owner/name' };

/**
 * Type and name of an item to watch. With `onRemove` (the hub does not expose the list, so there
 * are no rows to remove from) it also stops watching the item named.
 */
export function AddWatchForm({
  existing,
  busy,
  onAdd,
  onRemove,
}: {
  existing: Item[];
  busy: boolean;
  onAdd(item: Item): void;
  onRemove?(item: Item): void;
}) {
  const [type, setType] = useState<Item['type']>('repo');
  const [id, setId] = useState('');
  const [error, setError] = useState<string | undefined>();
  function checked(): Item | undefined {
    const parsed = WatchItem.safeParse({ id: id.trim(), type });
    if (!parsed.success)
      return void setError(
        parsed.error.issues[0]?.path[0] === 'id' ? 'Enter a name to watch' : parsed.error.issues[0]?.message,
      );
    setError(undefined);
    return parsed.data;
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    const item = checked();
    if (!item) return;
    if (existing.some((w) => w.id === item.id && w.type === item.type))
      return setError(`You already watch ${item.type} ${item.id}`);
    onAdd(item);
    setId('');
  }
  function remove() {
    const item = checked();
    if (!item || !onRemove) return;
    onRemove(item);
    setId('');
  }
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-2" aria-label="Add to watch list">
      <div>
        <label htmlFor="watch-type" className="mb-0.5 block text-xs font-medium">
          Type
        </label>
        <select
          id="watch-type"
          value={type}
          onChange={(e) => setType(e.target.value as Item['type'])}
          className={inputClass}
        >
          <option value="repo">Repository</option>
          <option value="user">User</option>
          <option value="org">Organization</option>
        </select>
      </div>
      <div className="min-w-56 flex-1">
        <label htmlFor="watch-id" className="mb-0.5 block text-xs font-medium">
          Name
        </label>
        <input
          id="watch-id"
          value={id}
          onChange={(e) => setId(e.target.value)}
          placeholder={placeholders[type]}
          className={inputClass}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'watch-id-error' : undefined}
        />
      </div>
      <Button type="submit" variant="primary" disabled={busy}>
        Watch
      </Button>
      {onRemove && (
        <Button onClick={remove} disabled={busy}>
          Stop watching
        </Button>
      )}
      {error && (
        <p id="watch-id-error" role="alert" className="w-full text-xs text-danger">
          {error}
        </p>
      )}
    </form>
  );
}
