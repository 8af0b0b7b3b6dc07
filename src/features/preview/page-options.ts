// What a link or a reload starts the preview page with (?repo=, ?subfolder=, ?revision=,
// ?provider=, ?weights=, ?threads=, ?segmentHeap=, ?decodeBudget=); an unknown value leaves the default.
import { PRECISIONS, type ProviderChoice } from './provider.ts';
import type { WeightPrecision } from '../../model/index.ts';

/** the checkpoint the page points at: a hub repository, its subfolder and revision */
export interface RepoChoice {
  repoId: string;
  subfolder: string;
  revision: string;
}

export const DEMO_REPOS = ['consisid-community/consisid-tiny', 'consisid-community/consisid-preview-s'];

export interface PageOptions {
  repo: RepoChoice;
  provider: ProviderChoice;
  weights: WeightPrecision | null;
  threads: number;
  /** the weight bytes one WebGPU segment may pass through the heap (default SEGMENT_HEAP_BUDGET) */
  heapBudget: number | undefined;
  /** the bytes the page gives a decode on its device (default VAE_PAGE_BUDGET's), the transformer's held sessions counted in */
  decodeBudget: number | null;
}

/** WASM threads need cross-origin isolation (SharedArrayBuffer); ?threads=N overrides the default */
function threadCount(asked: string | null, isolated: boolean, cores: number): number {
  if (!isolated) return 1;
  const n = Number(asked);
  return Number.isInteger(n) && n >= 1 && n <= 16 ? n : Math.max(1, Math.min(4, (cores || 2) - 1));
}

export function pageOptions(
  params: URLSearchParams,
  isolated = globalThis.crossOriginIsolated,
  cores = navigator.hardwareConcurrency,
): PageOptions {
  const provider = params.get('provider');
  const heap = params.get('segmentHeap');
  const heapBytes = Number(heap);
  const decodeBytes = Number(params.get('decodeBudget'));
  return {
    repo: {
      repoId: params.get('repo') ?? DEMO_REPOS[0]!,
      subfolder: params.get('subfolder') ?? 'transformer',
      revision: params.get('revision') ?? 'main',
    },
    provider: provider === 'webgpu' || provider === 'wasm' ? provider : 'auto',
    weights: PRECISIONS.find((w) => w === params.get('weights')) ?? null,
    threads: threadCount(params.get('threads'), isolated, cores),
    heapBudget: heap && Number.isSafeInteger(heapBytes) && heapBytes > 0 ? heapBytes : undefined,
    decodeBudget: Number.isSafeInteger(decodeBytes) && decodeBytes > 0 ? decodeBytes : null,
  };
}
