// The checkpoint picker: an owner's model repositories, and the checkpoint folders of the chosen
// (or typed) repository with their sizes, from the hub's file API. A hub that answers 404 to
// those routes leaves the typed repository id and subfolder, as before.
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSession } from '../../../components/session/session-context.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { formatBytes } from '../../../components/ui/format.ts';
import { Select } from '../../../components/ui/select.tsx';
import { useDebouncedDraft } from '../../../components/ui/use-debounced-draft.ts';
import { HubApiError } from '../../../hub/errors.ts';
import { whoamiQuery } from '../../../hub/queries.ts';
import { checkpointFoldersQuery, ownerModelsQuery, type FolderListing } from '../picker-queries.ts';
import { TextField } from './section.tsx';

const TYPING_PAUSE_MS = 400;
const OWNER = /^[\w.-]+$/;
const REPO_ID = /^[\w.-]+\/[\w.-]+$/;
const notFound = (e: unknown) => e instanceof HubApiError && e.isNotFound;

/** `value` once it has stayed the same for a typing pause */
function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), TYPING_PAUSE_MS);
    return () => clearTimeout(t);
  }, [value]);
  return settled;
}

export function CheckpointPicker({
  repoId,
  revision,
  disabled,
  onRepo,
  onPick,
}: {
  repoId: string;
  revision: string;
  disabled: boolean;
  onRepo(repoId: string): void;
  onPick(repoId: string, subfolder: string): void;
}) {
  const { client } = useSession();
  const me = useQuery({ ...whoamiQuery(client!), enabled: client !== null });
  // the signed-in user's models until another owner is typed
  const [ownerChosen, setOwnerChosen] = useState<string | null>(null);
  const owner = ownerChosen ?? me.data?.name ?? '';
  const [ownerDraft, setOwnerDraft] = useDebouncedDraft(owner, setOwnerChosen, TYPING_PAUSE_MS);
  const models = useQuery({ ...ownerModelsQuery(client!, owner), enabled: client !== null && OWNER.test(owner) });
  const repo = useSettled(repoId.trim());
  const rev = useSettled(revision.trim() || 'main');
  const folders = useQuery({
    ...checkpointFoldersQuery(client!, repo, rev),
    enabled: client !== null && REPO_ID.test(repo),
  });

  return (
    <div className="mt-4 space-y-3 rounded-md border border-border p-3" data-testid="checkpoint-picker">
      <div className="grid gap-3 sm:grid-cols-[1fr_2fr] sm:items-end">
        <TextField
          label="Owner"
          value={ownerDraft}
          onChange={(v) => setOwnerDraft(v.trim())}
          placeholder="user or organization"
        />
        {models.isError && notFound(models.error) ? (
          <p className="text-sm" role="note" data-testid="picker-fallback">
            This hub does not list models by owner (HTTP 404): type the repository id above.
          </p>
        ) : (
          <Field label="Their models">
            {(p) => (
              <Select
                {...p}
                options={[
                  {
                    value: '',
                    label:
                      models.isPending && OWNER.test(owner)
                        ? 'Listing…'
                        : models.isError
                          ? `Could not list the models of ${owner}`
                          : `${models.data?.length ?? 0} model${models.data?.length === 1 ? '' : 's'}: choose one`,
                  },
                  ...(models.data ?? []).map((m) => ({
                    value: m.id,
                    label: `${m.id}${m.private ? ' (private)' : ''}`,
                  })),
                ]}
                value={models.data?.some((m) => m.id === repoId) ? repoId : ''}
                disabled={disabled || !models.data?.length}
                onValueChange={(v) => v && onRepo(v)}
                data-testid="owner-models"
              />
            )}
          </Field>
        )}
      </div>
      {REPO_ID.test(repo) && <Folders repo={repo} revision={rev} query={folders} disabled={disabled} onPick={onPick} />}
    </div>
  );
}

function Folders({
  repo,
  revision,
  query,
  disabled,
  onPick,
}: {
  repo: string;
  revision: string;
  query: UseQueryResult<FolderListing>;
  disabled: boolean;
  onPick(repoId: string, subfolder: string): void;
}) {
  if (query.isPending) return <p className="text-sm">Listing the files of {repo}…</p>;
  if (query.isError)
    return (
      <p className="text-sm" role="note" data-testid="picker-fallback">
        {notFound(query.error)
          ? `The hub lists no files for ${repo} at ${revision} (HTTP 404): type the subfolder and press Inspect.`
          : `The files of ${repo} could not be listed (${(query.error as Error).message}): type the subfolder and press Inspect.`}
      </p>
    );
  const { commit, folders } = query.data;
  if (folders.length === 0)
    return (
      <p className="text-sm" data-testid="no-checkpoint-folders">
        No checkpoint folder (config.json beside diffusion_pytorch_model weights) in {repo} at {revision}.
      </p>
    );
  return (
    <div className="space-y-1">
      <p className="text-sm">
        Checkpoint folders in {repo} at {revision} (commit <code>{commit.slice(0, 7)}</code>):
      </p>
      <ul className="space-y-1 text-sm" aria-label="Checkpoint folders">
        {folders.map((f) => (
          <li key={f.subfolder} className="flex flex-wrap items-center gap-3" data-testid="checkpoint-folder">
            <Button type="button" onClick={() => onPick(repo, f.subfolder)} disabled={disabled}>
              Load {f.subfolder ? `${f.subfolder}/` : 'the root folder'}
            </Button>
            <span data-testid="folder-size">
              {formatBytes(f.weightBytes)} in {f.weightFiles} weight file{f.weightFiles === 1 ? '' : 's'}
            </span>
            {f.vae && <span data-testid="folder-vae">with vae/: {formatBytes(f.vae.weightBytes)}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
