// What stops a run request from running, as the inputs panel says it: each input against the
// limits the inspection gave for the config, one line per problem.
import type { CheckpointInfo } from './checkpoint.ts';
import type { RunRequest } from './worker/protocol.ts';
import type { InputSpec } from '../../model/index.ts';

/** what the inputs panel allows for a config */
type InputLimits = CheckpointInfo['limits'];

type Range = InputLimits['frames'];

/** Problems with a spec for a config (its limits, whether it has the identity module), one line each; empty when it can run. */
export function validateSpec(l: InputLimits, identityModule: boolean, s: InputSpec): string[] {
  const errs: string[] = [];
  const check = (name: string, r: Range, v: number) => {
    if (!Number.isInteger(v) || v < r.min || v > r.max)
      errs.push(`${name} must be an integer from ${r.min} to ${r.max}`);
    else if (v % r.step !== 0) errs.push(`${name} must be a multiple of ${r.step}`);
  };
  check('frames', l.frames, s.frames);
  check('height', l.height, s.height);
  check('width', l.width, s.width);
  check('text length', l.textLength, s.textLength);
  if (!Number.isFinite(s.timestep) || s.timestep < 0 || s.timestep > 999) errs.push('timestep must be from 0 to 999');
  if (!Number.isInteger(s.seed) || s.seed < 0 || s.seed > 0xffffffff)
    errs.push('seed must be an integer from 0 to 4294967295');
  if (identityModule && !s.identity) errs.push('this checkpoint has the identity module: identity inputs are required');
  if (!identityModule && s.identity) errs.push('this checkpoint has no identity module: turn identity inputs off');
  if (s.identity && s.vitTokens !== undefined && (!Number.isInteger(s.vitTokens) || s.vitTokens < 1))
    errs.push('ViT tokens must be a positive integer');
  return errs;
}

/** what stops a request from running, one line each (the step count only disables the button) */
export const requestErrors = (info: Pick<CheckpointInfo, 'limits' | 'config'>, r: RunRequest): string[] =>
  validateSpec(info.limits, info.config.is_train_face, {
    ...r.spec,
    textLength: r.uploads.text ? r.uploads.text.shape[1]! : r.spec.textLength,
  });

export const stepsValid = (r: RunRequest) =>
  r.mode !== 'denoise' || (Number.isInteger(r.steps) && r.steps >= 1 && r.steps <= 50);
