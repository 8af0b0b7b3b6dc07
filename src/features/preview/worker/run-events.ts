// A run's stage lines and timings in the worker, from the model's events and the run's own stages.
import { deviceName, type RunEvent, type Timings } from './protocol.ts';
import type { ModelEvents } from '../../../model/index.ts';

/**
 * `events` turns the model's stages into the page's stage lines and fills `timings`; `runStage`
 * is the run's own stage (the forward pass, a denoising step), shown again once a session is made
 * (the graph and session lines stood in for it meanwhile).
 */
export function runEvents(
  timings: Timings,
  emit: (e: RunEvent) => void,
): { events: ModelEvents; runStage(stage: string): void } {
  let running: string | null = null;
  const stage = (stage: string) => emit({ type: 'stage', stage });
  const events: ModelEvents = {
    onStage(e) {
      if (e.state === 'start') {
        if (e.stage === 'graph') stage('building the ONNX graph');
        if (e.stage === 'session') stage(`creating the ${deviceName(e.device)} session`);
        return;
      }
      if (e.stage === 'graph') timings.graphBuildMs.push(e.ms);
      if (e.stage === 'session') {
        timings.sessionCreateMs.push(e.ms);
        if (running) stage(running);
      }
      if (e.stage === 'forward') timings.forwardMs.push(e.ms);
    },
    onSegment: (e) => stage(`creating the ${deviceName(e.device)} session: segment ${e.index + 1} of ${e.count}`),
    onFallback: (e) => emit({ type: 'fallback', reason: e.reason }),
  };
  return { events, runStage: (s) => stage((running = s)) };
}
