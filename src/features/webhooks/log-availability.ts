import { HubApiError } from '../../hub/errors.ts';

/**
 * The delivery log list is a mock-hub extension: a hub that answers 404 for it (the real hub, or
 * the mock hub in spec-only mode) does not expose the log, while the webhook itself loaded fine.
 */
export function isLogUnavailable(error: unknown): boolean {
  return error instanceof HubApiError && error.status === 404;
}
