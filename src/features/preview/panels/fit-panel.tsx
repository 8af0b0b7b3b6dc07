// The fit table: per weight precision, what a session on the chosen device needs (weights, the
// activation peak at the chosen latent size, GPU memory, the WASM heap at once, the segments the
// weights pass through it in on WebGPU) and whether it fits this adapter and the browser's storage,
// with the reason when not; and the same for decoding with the checkpoint's vae/. Read from the
// configs, the adapter and the storage estimate before any download.
import { formatBytes } from '../../../components/ui/format.ts';
import type { CheckpointInfo } from '../checkpoint.ts';
import type { Preview } from '../use-preview.ts';
import type { AdapterCaps, BrowserStorage, Device, PrecisionFit, StorageRoom, VaeFit } from '../worker/protocol.ts';
import { Section, TableHead } from './section.tsx';

const HEADS = ['Precision', 'Weights', 'Activation peak', 'GPU memory needed', 'WASM heap at once', 'Segments', 'Fits'];

/** the download's size and where it comes from */
export function downloadLine(info: CheckpointInfo): string {
  if (info.downloadFrom === 'unknown') return 'unknown (a single weight file: its size is not asked for when refused)';
  const files = `${info.files.length} file${info.files.length === 1 ? '' : 's'}`;
  return info.downloadFrom === 'index'
    ? `about ${formatBytes(info.downloadBytes)} (the shard index's total_size)`
    : `${formatBytes(info.downloadBytes)} in ${files}`;
}

/** the adapter the plan was checked against (null: WASM) */
function adapterLine(adapter: AdapterCaps | null): string {
  if (!adapter) return 'WASM: the weights and every activation live in the WebAssembly heap, at most 4 GiB.';
  const { maxBufferSize, maxStorageBufferBindingSize } = adapter.limits;
  return `WebGPU adapter limits: maxBufferSize ${formatBytes(maxBufferSize)}, maxStorageBufferBindingSize ${formatBytes(maxStorageBufferBindingSize)}; shader-f16 ${adapter.shaderF16 ? 'yes' : 'no'}, subgroups ${adapter.subgroups ? 'yes' : 'no'}. WebGPU does not tell a page how much GPU memory there is: the memory needed is shown, not checked.`;
}

/** 'float16, int8, int4', with each one's converted bytes once planned from the checkpoint's headers */
const convertedList = (converted: BrowserStorage['converted']) => {
  const known = CONVERTED.filter((p) => converted?.[p] !== undefined);
  return known.length === CONVERTED.length
    ? `${known.map((p) => `${p} ${formatBytes(converted![p]!)}`).join(', ')}, from the checkpoint's headers`
    : CONVERTED.join(', ');
};
const CONVERTED = ['float16', 'int8', 'int4'] as const;

/** where converted weights go (their exact bytes once known): the browser storage's free bytes, or memory within the budget */
export function storageLine(
  room: StorageRoom | null,
  memoryBudget: number,
  converted?: BrowserStorage['converted'],
): string {
  const memory = `they are held in memory instead, with the largest segment's weights, within ${formatBytes(memoryBudget)}`;
  const weights = `Converted weights (${convertedList(converted)})`;
  if (room?.unusable) return `Browser storage: none (${room.unusable}). ${weights}: ${memory}.`;
  if (!room || room.free === null) return 'Browser storage: the browser does not say how much is free.';
  return `Browser storage: ${formatBytes(room.free)} free for this site. ${weights} are kept there; where they do not fit, ${memory}.`;
}

/** on WebGPU the largest segment's weights, none when no segment plan fits; on WASM everything */
export const heapCell = (f: PrecisionFit): string =>
  f.device === 'webgpu' && f.segments === null ? '—' : formatBytes(f.heapBytes);

/** what decoding the latents with the vae/ needs on the device (in its precision, per batch of latent frames), and whether it fits */
function vaeLine(vae: CheckpointInfo['vae'], plan: Preview['fit']['vae'], device: Device | null): string {
  if ('error' in vae) return `VAE: none to decode with (${vae.error}).`;
  const name = `VAE decoder (${vae.ref.subfolder}/, ${plan.data?.precision ?? 'float32'})`;
  if (!plan.data) return plan.error ? `${name}: the plan failed: ${plan.error.message}` : `${name}: planning…`;
  const { weightBytes, activationPeakBytes: peak, tiles } = plan.data;
  const gpu = device === 'webgpu';
  const fits = vaeFits(plan.data, gpu);
  return `${name}: weights ${formatBytes(weightBytes)}, activation peak ${formatBytes(gpu ? peak.webgpu : peak.cpu)} per batch${tiles > 1 ? ` in each of ${tiles} tiles` : ''}; fits: ${fits}.${besideLine(plan.data)}`;
}

/**
 * whether a decode fits: no where the browser cannot hold it at all (binding, heap); over the page's
 * budget where even its smallest tiles need more than the budget (it still decodes in those tiles)
 */
export function vaeFits(p: Pick<VaeFit, 'fit' | 'misses'>, gpu: boolean): string {
  if (!(gpu ? p.fit.webgpu : p.fit.wasm)) return `no: ${p.fit.reasons.join('; ')}`;
  return p.misses.length ? `over the page's budget (${p.misses.join('; ')}); it decodes in the smallest tiles` : 'yes';
}

/** whether the decode runs beside the chosen precision's sessions or releases them first (none held: nothing said) */
export function besideLine(p: Pick<VaeFit, 'beside' | 'heldBytes' | 'needBytes' | 'budget'>): string {
  if (p.heldBytes <= 0) return '';
  const held = Number.isFinite(p.heldBytes) ? formatBytes(p.heldBytes) : 'an unknown amount';
  const need = `the decode needs ${formatBytes(p.needBytes)}`;
  return p.beside
    ? ` It decodes beside the transformer: its sessions hold ${held}, ${need} of the ${formatBytes(p.budget.bytes)} left.`
    : ` It releases the transformer's sessions first: they hold ${held}, and ${need} of the ${formatBytes(p.budget.bytes)} budget; the next run makes them again.`;
}

export function FitPanel({ preview, info }: { preview: Preview; info: CheckpointInfo }) {
  const { room, device } = preview.state;
  const { fits, answer, error, converted, vae } = preview.fit;
  return (
    <Section title="Before downloading: what fits" testId="fit-panel">
      <p className="text-sm">
        Bytes to download: <span data-testid="download-bytes">{downloadLine(info)}</span>
      </p>
      <p className="mt-1 text-xs text-muted" data-testid="fit-limits">
        {answer ? adapterLine(answer.adapter) : 'Planning…'}
      </p>
      <p className="mt-1 text-xs text-muted" data-testid="fit-storage">
        {answer && storageLine(room, answer.memoryBudget, converted)}
      </p>
      {error ? (
        <p className="mt-2 text-sm" role="alert" data-testid="fit-error">
          The plan at this latent size failed: {error.message}
        </p>
      ) : !fits ? (
        <p className="mt-2 text-sm" role="status">
          Planning each precision at this latent size…
        </p>
      ) : (
        <table className="mt-2 w-full text-left text-xs" data-testid="fit-table">
          <caption className="sr-only">What each weight precision needs, and whether it fits</caption>
          <TableHead heads={HEADS} />
          <tbody>
            {fits.map((f) => (
              <tr key={f.weights} className="border-t border-border align-top" data-testid={`fit-${f.weights}`}>
                <th scope="row" className="py-1 pr-3 font-mono font-normal">
                  {f.weights}
                </th>
                <td className="py-1 pr-3">{formatBytes(f.weightBytes)}</td>
                <td className="py-1 pr-3">{formatBytes(f.activationPeakBytes)}</td>
                <td className="py-1 pr-3">{f.gpuBytes === null ? '—' : formatBytes(f.gpuBytes)}</td>
                <td className="py-1 pr-3">{heapCell(f)}</td>
                <td className="py-1 pr-3">{f.segments ?? '—'}</td>
                <td className="py-1 pr-3">{f.fits ? 'yes' : `no: ${f.reasons.join('; ')}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="mt-2 text-xs" data-testid="fit-vae">
        {vaeLine(info.vae, vae, device)}
      </p>
    </Section>
  );
}
