import type { WebhooksLogger } from './logger.ts';

/** A logger that records what it is told, for tests. */
export function recordingLogger(): WebhooksLogger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  return {
    lines,
    info: (message) => lines.push({ level: 'info', message }),
    warn: (message) => lines.push({ level: 'warn', message }),
    error: (message) => lines.push({ level: 'error', message }),
  };
}
