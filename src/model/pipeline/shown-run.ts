// A preview run as the page shows it: runPreview with each step's latents drawn (latentView) and the
// output drawn and summed up, computed where the latents are (the worker) so the page only paints.
import type { ConsisIDConfig } from '../graph/config.ts';
import { latentView, summarize, type LatentView, type OutputSummary } from './latent-view.ts';
import { runPreview } from './run-preview.ts';
import type { PreviewRequest, RunHooks, StepFrame, Timings } from './run-types.ts';

/** a denoising step as the page gets it: its latents drawn (absent for a step the page was not sent) */
export type ShownStep = Omit<StepFrame, 'latents'> & { view?: LatentView };

/** a run's output, drawn and summed up, with what it read back and the last forward's arguments */
export type ShownRun = Awaited<ReturnType<typeof runPreview>> & { view: LatentView; summary: OutputSummary };

/** runs the request (runPreview) and reports each step drawn; the output comes back drawn and summed up */
export async function runShownPreview(
  c: ConsisIDConfig,
  req: PreviewRequest,
  timings: Timings,
  hooks: Omit<RunHooks, 'step'> & { step(frame: ShownStep): void },
): Promise<ShownRun> {
  const out = await runPreview(c, req, timings, {
    ...hooks,
    step: ({ latents, ...frame }) => {
      const view = latents && latentView(latents, frame.shape);
      hooks.step({ ...frame, ...(view ? { view } : {}) });
    },
  });
  return { ...out, view: latentView(out.sample, out.shape), summary: summarize(out.shape, out.sample) };
}
