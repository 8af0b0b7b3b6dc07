// The resident memory of a Chromium's processes by kind (the GPU process, the renderers), found
// through CDP's SystemInfo.getProcessInfo and read from /proc: on SwiftShader a page's GPU buffers
// live in the GPU process's host memory, outside the page's measureUserAgentSpecificMemory.
import type { Browser } from '@playwright/test';
import { usage } from './browser-processes.ts';

export type RssByKind = Record<string, number>;

/** the RSS of each kind of the browser's processes (CDP's type, lower case: 'gpu', 'renderer', ...), summed over its processes (bytes) */
export async function rssByKind(browser: Browser): Promise<RssByKind> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
      processInfo: { type: string; id: number }[];
    };
    const read = await usage(processInfo.map((p) => p.id));
    const out: RssByKind = {};
    for (const p of processInfo) {
      const kind = p.type.toLowerCase();
      out[kind] = (out[kind] ?? 0) + (read.get(p.id)?.rss ?? 0);
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

/** samples rssByKind every `everyMs` until stopped: the most of each kind */
export function watchRss(browser: Browser, everyMs = 1000): { stop(): Promise<RssByKind> } {
  const peak: RssByKind = {};
  let busy: Promise<void> | null = null;
  const sample = () =>
    (busy ??= rssByKind(browser)
      .then((now) => {
        for (const [k, v] of Object.entries(now)) peak[k] = Math.max(peak[k] ?? 0, v);
      })
      .catch(() => {})
      .finally(() => (busy = null)));
  const timer = setInterval(() => void sample(), everyMs);
  void sample();
  return {
    async stop() {
      clearInterval(timer);
      await busy;
      return peak;
    },
  };
}
