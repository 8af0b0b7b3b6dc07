// The model library's one byte formatter: every size a plan, a refusal or the CLI names is written by it.

/** bytes as GiB (2 decimals), MiB or KiB (1 decimal) */
export function formatBytes(b: number): string {
  if (b >= 2 ** 30) return `${(b / 2 ** 30).toFixed(2)} GiB`;
  return b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(1)} MiB` : `${(b / 2 ** 10).toFixed(1)} KiB`;
}
