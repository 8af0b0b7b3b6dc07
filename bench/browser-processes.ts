// Memory and CPU of one Chromium instance, all its processes together (browser, renderers, GPU,
// utilities), read from /proc: PSS, so pages shared between the processes count once.
import { readdirSync, readFileSync } from 'node:fs';

function children(): Map<number, number[]> {
  const kids = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      // the process ended while it was read
    }
  }
  return kids;
}

/** the browser process started with this --user-data-dir, and every process under it */
function processTree(userDataDir: string): number[] {
  const kids = children();
  const root = [...kids.values()].flat().find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`--user-data-dir=${userDataDir}`);
    } catch {
      return false;
    }
  });
  if (root === undefined) return [];
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(kids.get(out[i]!) ?? []));
  return out;
}

const read = (pid: number, file: string) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
};

/** PSS bytes and CPU seconds (user + system) of the browser's processes now */
export function browserUsage(userDataDir: string): { pss: number; cpu: number } {
  let pss = 0;
  let cpu = 0;
  for (const pid of processTree(userDataDir)) {
    pss += Number(/^Pss:\s+(\d+) kB/m.exec(read(pid, 'smaps_rollup'))?.[1] ?? 0) * 1024;
    const stat = read(pid, 'stat');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    cpu += (Number(f[11] ?? 0) + Number(f[12] ?? 0)) / 100;
  }
  return { pss, cpu };
}

/** samples the browser's PSS every 100 ms until stopped; returns the peak and the CPU seconds spent */
export function sampleBrowser(userDataDir: string): { stop(): { peakPss: number; cpuSeconds: number } } {
  const start = browserUsage(userDataDir);
  let peak = start.pss;
  const timer = setInterval(() => (peak = Math.max(peak, browserUsage(userDataDir).pss)), 100);
  return {
    stop() {
      clearInterval(timer);
      const end = browserUsage(userDataDir);
      return { peakPss: Math.max(peak, end.pss), cpuSeconds: end.cpu - start.cpu };
    },
  };
}
