// What the preview page reads, as queries (TanStack Query, like every other page): the WebGPU
// adapter, a checkpoint's inspection, what of it the browser cache holds, the room the browser
// leaves this site, and each precision's plan. Everything but the adapter and the storage
// estimate is answered by the plan worker.
import { queryOptions, skipToken } from '@tanstack/react-query';
import { fileVersions, type CheckpointInfo, type CheckpointRef } from './checkpoint.ts';
import { adapterCaps, probeWebGPU, type ProviderProbe } from './provider.ts';
import { planWorker } from './worker/plan-client.ts';
import type {
  AdapterReport,
  BrowserStorage,
  DecodeRequest,
  Device,
  FitAnswer,
  StorageRoom,
} from './worker/protocol.ts';
import type { InputSpec } from '../../model/index.ts';

/** the checkpoint without the token (keys are not secret; signing out clears every query anyway) */
const refKey = ({ hubUrl, repoId, subfolder, revision }: CheckpointRef) => ({ hubUrl, repoId, subfolder, revision });

/** what of a spec decides the graph (and so the plan): not the seed or the timestep */
const shapeKey = (s: InputSpec | null) =>
  s && { frames: s.frames, height: s.height, width: s.width, text: s.textLength, id: s.identity, vit: s.vitTokens };

export const previewKeys = {
  all: ['preview'] as const,
  webgpu: () => [...previewKeys.all, 'webgpu'] as const,
  inspection: (ref: CheckpointRef | null, attempt: number) =>
    [...previewKeys.all, 'inspection', ref && refKey(ref), attempt] as const,
  /** per inspection (a new one starts from what it found): what the cache holds of its files, raw and converted */
  cached: (info: CheckpointInfo | null, inspectedAt: number) =>
    ['preview', 'cached', info && refKey(info.ref), info?.files.map((f) => [f.url, f.etag]), inspectedAt] as const,
  storageRoom: (storedBytes: number) => [...previewKeys.all, 'storage-room', storedBytes] as const,
};

/** once per page load: the adapter does not change under the page */
export const webgpuProbeQuery = () =>
  queryOptions({
    queryKey: previewKeys.webgpu(),
    queryFn: () => probeWebGPU(),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });

/**
 * config.json, the shard index and the safetensors headers of the checkpoint the user asked for;
 * the headers only when its plan fits this browser (`probe`: the adapter, waited for), else the
 * refusal. Each Inspect is its own attempt (read afresh, never from an earlier answer); an attempt
 * the page leaves (a newer one, a cancel) is aborted, and a failure is shown at once, not retried.
 */
export const inspectionQuery = (ref: CheckpointRef | null, attempt: number, probe: ProviderProbe | null) =>
  queryOptions({
    queryKey: previewKeys.inspection(ref, attempt),
    queryFn:
      ref && probe
        ? ({ signal }) => planWorker().call('inspect', { ref, adapter: adapterCaps(probe) }, undefined, signal)
        : skipToken,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

/**
 * What the browser cache holds of the inspected files: each file's chunks (a download or a run
 * stopped part way leaves some, and the page then offers only the rest) and each precision it was
 * converted to, with their bytes; listed again each time the page is idle again (a run converts,
 * a download stores, a removal or a clear empties).
 */
export const cachedQuery = (info: CheckpointInfo | null, inspectedAt: number, busy: boolean) =>
  queryOptions({
    queryKey: previewKeys.cached(info, inspectedAt),
    queryFn: info ? () => planWorker().call('cached', fileVersions(info)) : skipToken,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    enabled: !busy && !!info,
  });

/** the room the browser leaves this site, read again whenever the bytes stored change (`storedBytes`) */
export const storageRoomQuery = (storedBytes: number) =>
  queryOptions({
    queryKey: previewKeys.storageRoom(storedBytes),
    queryFn: async (): Promise<StorageRoom> => {
      const e = await navigator.storage?.estimate?.().catch(() => undefined);
      const free = e?.quota !== undefined && e.usage !== undefined ? Math.max(0, e.quota - e.usage) : null;
      return { free, unusable: await planWorker().call('unusable', null) };
    },
    retry: false,
  });

/**
 * Each precision of the config at `spec` on `device`, as it fits this adapter (`heapBudget`: one
 * WebGPU segment's) and, given `storage`, the browser's storage; planned in the plan worker.
 */
export const fitQuery = (
  config: CheckpointInfo['config'] | null,
  spec: InputSpec | null,
  device: Device | null,
  probe: ProviderProbe | null,
  heapBudget?: number,
  storage?: BrowserStorage,
) =>
  queryOptions({
    queryKey: [
      'preview',
      'fit',
      config,
      shapeKey(spec),
      device,
      probe && adapterCaps(probe),
      heapBudget ?? null,
      storage ?? null,
    ] as const,
    queryFn:
      config && spec && device && probe
        ? (): Promise<FitAnswer> =>
            planWorker().call('fit', {
              config,
              spec,
              device,
              adapter: device === 'webgpu' ? adapterCaps(probe) : null,
              heapBudget,
              storage,
            })
        : skipToken,
    // the same checkpoint, shape and device planned again (the browser's storage read, a cache
    // change) keeps showing the last plan until the new one comes, instead of blinking empty
    placeholderData: (previous, previousQuery) =>
      previousQuery &&
      previousQuery.queryKey[2] === config &&
      JSON.stringify(previousQuery.queryKey[3]) === JSON.stringify(shapeKey(spec)) &&
      previousQuery.queryKey[4] === device
        ? previous
        : undefined,
    staleTime: Infinity,
    retry: false,
  });

/**
 * Per precision, the bytes its converted files will take in the browser cache: exact, from the
 * inspected headers; the fit's storage rule uses them in place of the plan's weight bytes. Kept
 * per checkpoint version, shape and device.
 */
export const convertedQuery = (info: CheckpointInfo | null, spec: InputSpec | null, device: Device | null) =>
  queryOptions({
    queryKey: ['preview', 'converted', info && info.files.map((f) => [f.url, f.etag]), shapeKey(spec), device] as const,
    queryFn:
      info && !info.refused && info.files.length && spec && device
        ? () => planWorker().call('converted', { info: { config: info.config, weights: info.weights }, spec, device })
        : skipToken,
    staleTime: Infinity,
    retry: false,
  });

/**
 * the decode of a run's latents (1, F, C, h, w) with the checkpoint's vae/: weights, activation peak
 * per batch, tiles, and whether it runs beside the sessions of `transformer` (the chosen precision's fit)
 */
export const vaeFitQuery = (
  info: CheckpointInfo | null,
  spec: InputSpec | null,
  device: Device | null,
  adapter: AdapterReport | null,
  beside: Pick<DecodeRequest, 'transformer' | 'budgetBytes' | 'threads'>,
) => {
  const vae = info && !('error' in info.vae) ? info.vae.rawConfig : null;
  const dims = spec && info && [1, spec.frames, info.config.out_channels, spec.height, spec.width];
  const { transformer, budgetBytes, threads } = beside;
  const held = transformer && [transformer.device, transformer.weights, transformer.gpuBytes, transformer.heapBytes];
  return queryOptions({
    queryKey: ['preview', 'vae-fit', vae, dims, device, adapter?.limits ?? null, held, budgetBytes, threads] as const,
    queryFn:
      vae && dims && device
        ? () => planWorker().call('vaeFit', { vae, dims, device, adapter, transformer, budgetBytes, threads })
        : skipToken,
    staleTime: Infinity,
    retry: false,
  });
};
