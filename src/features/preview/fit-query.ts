// Whether a checkpoint fits this browser, from its config and the adapter's limits, before any
// weight is downloaded: each precision's plan at the chosen latent size (in the planner worker),
// as a query the fit table, the precision default and the run button read.
import { queryOptions, skipToken } from '@tanstack/react-query';
import { DEFAULT_VIT_TOKENS, defaultSpec, type InputSpec } from './inputs.ts';
import type { CheckpointInfo } from './checkpoint.ts';
import type { Device, PlanApi } from './protocol.ts';
import { adapterCaps, availableDevices, type ProviderProbe } from './provider.ts';
import { rpcClient, type RpcClient } from './worker-rpc.ts';
import type { BrowserStorage, ConsisIDConfig, GraphShape, PrecisionFit } from '../../model/index.ts';

/** the graph a run of `spec` builds */
export function fitShape(config: ConsisIDConfig, spec: InputSpec): GraphShape {
  const face = config.is_train_face && spec.identity;
  return {
    batch: 1,
    frames: spec.frames,
    height: spec.height,
    width: spec.width,
    textLength: spec.textLength,
    timestepCond: false,
    rotary: config.use_rotary_positional_embeddings,
    face: face
      ? {
          idBatch: 1,
          vitLengths: Array.from({ length: config.LFE_num_scale }, () => spec.vitTokens ?? DEFAULT_VIT_TOKENS),
        }
      : null,
  };
}

/** one planner for the page's lifetime: it keeps the plans it made */
let planner: RpcClient<PlanApi> | null = null;
const plannerClient = () =>
  (planner ??= rpcClient<PlanApi>(
    new Worker(new URL('./plan.worker.ts', import.meta.url), { type: 'module', name: 'consisid-plan' }),
  ));

/**
 * Each precision of `config` at `spec` on `device`, as it fits this adapter (`heapBudget`: one
 * WebGPU segment's) and, given `storage`, the browser's storage.
 */
export const fitOnDevice = (
  config: ConsisIDConfig,
  spec: InputSpec,
  device: Device,
  probe: ProviderProbe,
  heapBudget?: number,
  storage?: BrowserStorage,
) =>
  plannerClient().call('fit', {
    config,
    shape: fitShape(config, spec),
    device,
    adapter: device === 'webgpu' ? adapterCaps(probe) : null,
    heapBudget,
    storage,
  });

export const fitQuery = (
  config: ConsisIDConfig | null,
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
      spec && fitShape(config!, spec),
      device,
      probe && adapterCaps(probe),
      heapBudget ?? null,
      storage ?? null,
    ] as const,
    queryFn:
      config && spec && device && probe
        ? (): Promise<PrecisionFit[]> => fitOnDevice(config, spec, device, probe, heapBudget, storage)
        : skipToken,
    // the same checkpoint, shape and device planned again (the browser's storage read, a cache
    // change) keeps showing the last plan until the new one comes, instead of blinking empty
    placeholderData: (previous, previousQuery) =>
      previousQuery && samePlan(previousQuery.queryKey, config, spec, device) ? previous : undefined,
    staleTime: Infinity,
    retry: false,
  });

const samePlan = (
  key: readonly unknown[],
  config: ConsisIDConfig | null,
  spec: InputSpec | null,
  device: Device | null,
) =>
  key[2] === config &&
  JSON.stringify(key[3]) === JSON.stringify(spec && config && fitShape(config, spec)) &&
  key[4] === device;

/**
 * Per precision, the bytes its converted files will take in the browser cache: exact, from the
 * inspected headers (planned in the planner worker); the fit's storage rule uses them in place of
 * the plan's weight bytes. Kept per checkpoint version, shape and device.
 */
export const convertedQuery = (info: CheckpointInfo | null, spec: InputSpec | null, device: Device | null) =>
  queryOptions({
    queryKey: [
      'preview',
      'converted',
      info && info.files.map((f) => [f.url, f.etag]),
      info && spec && fitShape(info.config, spec),
      device,
    ] as const,
    queryFn:
      info && !info.refused && info.files.length && spec && device
        ? () =>
            plannerClient().call('converted', {
              config: info.config,
              shape: fitShape(info.config, spec),
              device,
              weights: info.weights,
            })
        : skipToken,
    staleTime: Infinity,
    retry: false,
  });

/**
 * Why a checkpoint is refused before its weights are touched: no precision fits any device this
 * browser has at the latent size a run starts with; null when one does.
 */
export async function checkpointRefusal(config: ConsisIDConfig, probe: ProviderProbe): Promise<string | null> {
  const spec = defaultSpec(config);
  for (const device of availableDevices(probe))
    if ((await fitOnDevice(config, spec, device, probe)).some((f) => f.fits)) return null;
  const where = probe.webgpu ? "this WebGPU adapter's limits or the 4 GiB WASM heap" : 'the 4 GiB WASM heap';
  return `No weight precision of this checkpoint fits ${where} at ${spec.frames} latent frames of ${spec.height} x ${spec.width}: nothing was downloaded.`;
}
