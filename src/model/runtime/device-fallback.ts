// A session made on the requested device, or on the fallback device when that one fails. Weights
// the hub failed to deliver fail on any device: the fallback is for the device's own failures.
import { HubFileError } from '../io/hub-files.ts';
import type { ModelEvents } from './events.ts';
import type { Device } from './types.ts';

/** `open(device)`, else (with a different `fallback`, and not a hub failure) `open(fallback)` after `onFallback` */
export async function onDeviceOrFallback<T>(
  device: Device,
  fallback: Device | undefined,
  events: ModelEvents,
  open: (device: Device) => Promise<T>,
): Promise<{ value: T; device: Device }> {
  try {
    return { value: await open(device), device };
  } catch (e) {
    if (!fallback || fallback === device || e instanceof HubFileError) throw e;
    events.onFallback?.({ from: device, to: fallback, reason: e instanceof Error ? e.message : String(e) });
    return { value: await open(fallback), device: fallback };
  }
}
