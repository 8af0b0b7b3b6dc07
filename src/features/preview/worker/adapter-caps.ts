// The adapter a plan is checked against: the limits the page's probe read, the WebGPU spec's
// defaults for the ones the adapter does not report.
import type { AdapterReport } from './protocol.ts';
import { WEBGPU_DEFAULT_LIMITS, type AdapterCaps, type WebGpuLimits } from '../../../model/index.ts';

export const withDefaultLimits = (limits: Partial<WebGpuLimits>): WebGpuLimits => ({
  maxBufferSize: limits.maxBufferSize ?? WEBGPU_DEFAULT_LIMITS.maxBufferSize,
  maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize ?? WEBGPU_DEFAULT_LIMITS.maxStorageBufferBindingSize,
});

export const adapterCaps = (report: AdapterReport | null): AdapterCaps | null =>
  report && { ...report, limits: withDefaultLimits(report.limits) };
