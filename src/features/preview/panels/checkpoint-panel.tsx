// The checkpoint panel: which repository to preview, and what it holds before anything downloads.
import { useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { formatBytes } from '../../../components/ui/format.ts';
import { convertedLine, convertedTotals, holdsAny } from '../cache-contents.ts';
import type { CheckpointInfo } from '../checkpoint.ts';
import { DEMO_REPOS } from '../page-options.ts';
import type { PanelProps, Preview } from '../use-preview.ts';
import { CheckpointPicker } from './checkpoint-picker.tsx';
import { downloadLine } from './fit-panel.tsx';
import { Section, TableHead, TextField } from './section.tsx';

export function CheckpointPanel({ preview }: { preview: Preview }) {
  const { info, busy, phase } = preview.state;
  const { initialRepo: initial, inspect: onInspect } = preview;
  const [repoId, setRepoId] = useState(initial.repoId);
  const [subfolder, setSubfolder] = useState(initial.subfolder);
  const [revision, setRevision] = useState(initial.revision);
  return (
    <Section title="Checkpoint">
      <form
        className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          onInspect({ repoId: repoId.trim(), subfolder: subfolder.trim(), revision: revision.trim() || 'main' });
        }}
      >
        <TextField
          label="Repository"
          value={repoId}
          onChange={setRepoId}
          list="preview-demo-repos"
          placeholder="owner/name"
          required
        />
        {/* outside the Field: a last child there would give the input the bottom margin of space-y */}
        <datalist id="preview-demo-repos">
          {DEMO_REPOS.map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
        <TextField label="Subfolder" value={subfolder} onChange={setSubfolder} />
        <TextField label="Revision" value={revision} onChange={setRevision} />
        <Button type="submit" variant="primary" disabled={busy}>
          Inspect
        </Button>
      </form>
      <CheckpointPicker
        repoId={repoId}
        revision={revision}
        disabled={busy}
        onRepo={setRepoId}
        onPick={(picked, folder) => {
          setRepoId(picked);
          setSubfolder(folder);
          onInspect({ repoId: picked, subfolder: folder, revision: revision.trim() || 'main' });
        }}
      />
      {phase.kind === 'inspecting' && (
        <div className="mt-3 flex items-center gap-3">
          <p className="text-sm" role="status">
            Reading config.json, planning what fits, then the safetensors headers…
          </p>
          {/* a hub that does not answer must not hold the page */}
          <Button type="button" onClick={preview.cancel}>
            Cancel
          </Button>
        </div>
      )}
      {info && <CheckpointSummary preview={preview} info={info} />}
    </Section>
  );
}

/** the config's figures shown at a glance (the whole config.json is one click away) */
const KEY_CONFIG = (
  'num_layers num_attention_heads attention_head_dim in_channels out_channels text_embed_dim time_embed_dim ' +
  'patch_size sample_frames sample_height sample_width max_text_seq_length use_rotary_positional_embeddings is_train_face'
).split(' ') as (keyof CheckpointInfo['config'])[];

function Figure({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-muted">{label}</dt>
      <dd className="font-medium" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function CheckpointSummary({ preview, info }: Pick<PanelProps, 'preview' | 'info'>) {
  const { cached, room, busy } = preview.state;
  const free = room?.free ?? null;
  const several = Object.keys(info.dtypes).length > 1;
  const dtypes = Object.entries(info.dtypes)
    .map(([d, n]) => `${d}${several ? ` (${((100 * n) / info.params).toFixed(0)}%)` : ''}`)
    .join(', ');
  return (
    <div className="mt-4 space-y-3" data-testid="checkpoint-summary">
      {info.refused && (
        <p className="text-sm text-accent" role="alert" data-testid="checkpoint-refused">
          {info.refused}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
        <Figure label="Parameters" testId="param-count">
          {info.params.toLocaleString('en')}
        </Figure>
        {!info.refused && (
          <Figure label="Weight dtype" testId="weight-dtype">
            {dtypes}
          </Figure>
        )}
        <Figure label="Download size" testId="download-size">
          {downloadLine(info)}
        </Figure>
        <Figure label="VAE" testId="vae-size">
          {'error' in info.vae ? 'none' : `${info.vae.ref.subfolder}/: ${formatBytes(info.vae.bytes)}`}
        </Figure>
        {!info.refused && (
          <Figure label="Browser cache" testId="cache-state">
            {info.missingBytes === 0
              ? 'all files cached'
              : info.missingBytes < info.downloadBytes
                ? `${formatBytes(info.missingBytes)} to download`
                : 'not cached'}
          </Figure>
        )}
        {!info.refused && cached && (
          <Figure label="Converted in cache" testId="cache-converted">
            {convertedLine(convertedTotals(cached))}
          </Figure>
        )}
      </dl>
      {!info.refused && cached && holdsAny(cached) && (
        <Button type="button" variant="ghost" onClick={preview.removeCached} disabled={busy}>
          Remove this checkpoint from the browser cache
        </Button>
      )}
      {!info.refused && free !== null && info.missingBytes > free && (
        <p className="text-sm text-accent" role="status">
          The browser lets this site store about {formatBytes(free)} more, less than the{' '}
          {formatBytes(info.missingBytes)} to download: the weights may not stay cached.
        </p>
      )}
      {info.files.length > 0 && (
        <table className="w-full text-left text-xs">
          <caption className="sr-only">Weight files</caption>
          <TableHead heads={['File', 'Size', 'Tensors', 'Cached', 'Converted']} />
          <tbody>
            {info.files.map((f) => (
              <tr key={f.name} className="border-t border-border">
                <td className="py-1 pr-3 font-mono">{f.name}</td>
                <td className="py-1 pr-3">{formatBytes(f.size)}</td>
                <td className="py-1 pr-3">{f.tensors}</td>
                <td className="py-1 pr-3">
                  {f.cached ? 'yes' : f.storedBytes > 0 ? `${formatBytes(f.storedBytes)} of it` : 'no'}
                </td>
                <td className="py-1 pr-3">{convertedLine(cached?.find((c) => c.url === f.url)?.converted ?? [])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfigFigures info={info} />
    </div>
  );
}

function ConfigFigures({ info }: { info: CheckpointInfo }) {
  return (
    <>
      <dl className="grid gap-x-6 gap-y-0.5 text-xs sm:grid-cols-2 lg:grid-cols-3" data-testid="config-summary">
        {KEY_CONFIG.map((k) => (
          <div key={k} className="flex justify-between gap-2">
            <dt className="min-w-0 break-all font-mono text-muted">{k}</dt>
            <dd className="font-mono">{String(info.config[k])}</dd>
          </div>
        ))}
      </dl>
      <details className="text-xs">
        <summary className="cursor-pointer">Full config.json</summary>
        <pre className="mt-2 max-h-64 overflow-auto rounded bg-surface-muted p-2">
          {JSON.stringify(info.rawConfig, null, 2)}
        </pre>
      </details>
    </>
  );
}
