import { HubApiError, HubSchemaError } from '../../hub/errors.ts';

export interface ErrorDescription {
  message: string;
  status?: number;
  requestId?: string;
}

/** Turns any thrown value into text for people; the token never appears in hub errors. */
export function describeError(error: unknown): ErrorDescription {
  if (error instanceof HubApiError) return { message: error.message, status: error.status, requestId: error.requestId ?? undefined };
  if (error instanceof HubSchemaError) return { message: `The hub answered in an unexpected shape. ${error.message}` };
  if (error instanceof Error) return { message: error.message };
  return { message: String(error) };
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof HubApiError && error.status === 401;
}

export function isForbidden(error: unknown): boolean {
  return error instanceof HubApiError && error.status === 403;
}
