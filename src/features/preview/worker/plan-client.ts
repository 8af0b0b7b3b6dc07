// The page's one plan worker (worker/plan.worker.ts), started on first use: it keeps the plans it made.
import type { PlanApi } from './protocol.ts';
import { rpcClient, type RpcClient } from './rpc.ts';

let planner: RpcClient<PlanApi> | null = null;

export const planWorker = (): RpcClient<PlanApi> =>
  (planner ??= rpcClient<PlanApi>(
    new Worker(new URL('./plan.worker.ts', import.meta.url), { type: 'module', name: 'consisid-plan' }),
  ));
