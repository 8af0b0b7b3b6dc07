// What the preview page reads, as queries (TanStack Query, like every other page): the WebGPU
// adapter, a checkpoint's inspection, the bytes of it the browser cache holds, and the room the
// browser leaves this site. The controller (use-preview-worker.ts) only writes the stored bytes
// it knows without reading (a finished download, a cleared cache).
import { queryOptions, skipToken } from '@tanstack/react-query';
import { cachedFiles, fileStorageRefusal } from '../../model/index.ts';
import { inspectCheckpoint, recountStored, type CheckpointInfo, type CheckpointRef } from './checkpoint.ts';
import { checkpointRefusal } from './fit-query.ts';
import { probeWebGPU, type ProviderProbe } from './provider.ts';

/** the checkpoint without the token (keys are not secret; signing out clears every query anyway) */
const refKey = ({ hubUrl, repoId, subfolder, revision }: CheckpointRef) => ({ hubUrl, repoId, subfolder, revision });

/** a key of what is counted per inspection of a checkpoint (its files' versions, and when it was made) */
const perInspection = <K extends string>(kind: K, info: CheckpointInfo | null, inspectedAt: number) =>
  ['preview' as const, kind, info && refKey(info.ref), info?.files.map((f) => [f.url, f.etag]), inspectedAt] as const;

export const previewKeys = {
  all: ['preview'] as const,
  webgpu: () => [...previewKeys.all, 'webgpu'] as const,
  inspection: (ref: CheckpointRef | null, attempt: number) =>
    [...previewKeys.all, 'inspection', ref && refKey(ref), attempt] as const,
  /** per inspection: a new one starts from what it found */
  stored: (info: CheckpointInfo | null, inspectedAt: number) => perInspection('stored', info, inspectedAt),
  /** per inspection: what the cache holds of its files, raw and converted */
  cached: (info: CheckpointInfo | null, inspectedAt: number) => perInspection('cached', info, inspectedAt),
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
        ? ({ signal }) => inspectCheckpoint(ref, signal, (config) => checkpointRefusal(config, probe))
        : skipToken,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

/**
 * The bytes of the inspected files in the browser cache, counted again whenever the page is idle
 * with some still missing: a download or a run that stopped part way leaves chunks stored, and
 * the page then offers only the rest.
 */
export const storedQuery = (info: CheckpointInfo | null, inspectedAt: number, busy: boolean) =>
  queryOptions({
    queryKey: previewKeys.stored(info, inspectedAt),
    queryFn: info ? ({ client, queryKey }) => recountStored(info.files, client.getQueryData(queryKey)) : skipToken,
    initialData: info ? () => info.files.map(({ cached, storedBytes }) => ({ cached, storedBytes })) : undefined,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    enabled: (q) => !busy && !!info && (q.state.data ?? []).some((s, i) => s.storedBytes < info.files[i]!.size),
  });

/**
 * What the browser cache holds of the inspected files: each file's chunks and each precision it
 * was converted to, with their bytes; listed again each time the page is idle again (a run
 * converts, a download stores, a removal or a clear empties).
 */
export const cachedQuery = (info: CheckpointInfo | null, inspectedAt: number, busy: boolean) =>
  queryOptions({
    queryKey: previewKeys.cached(info, inspectedAt),
    queryFn: info ? () => cachedFiles(info.files) : skipToken,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    enabled: !busy && !!info,
  });

/** the room the browser leaves this site for the weights */
export interface StorageRoom {
  /** bytes the origin may still store (navigator.storage.estimate: quota less usage); null when the browser does not say */
  free: number | null;
  /** why the browser stores no files here (no OPFS, private mode); null when it does */
  unusable: string | null;
}

/** the room the browser leaves this site, read again whenever the bytes stored change (`storedBytes`) */
export const storageRoomQuery = (storedBytes: number) =>
  queryOptions({
    queryKey: previewKeys.storageRoom(storedBytes),
    queryFn: async (): Promise<StorageRoom> => {
      const e = await navigator.storage?.estimate?.().catch(() => undefined);
      const free = e?.quota !== undefined && e.usage !== undefined ? Math.max(0, e.quota - e.usage) : null;
      return { free, unusable: await fileStorageRefusal() };
    },
    retry: false,
  });
