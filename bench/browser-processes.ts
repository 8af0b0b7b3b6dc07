// Memory and CPU of one Chromium instance, all its processes together (browser, renderers, GPU,
// utilities), read from /proc: PSS, so pages shared between the processes count once. Reads are
// asynchronous (the bench's hub serves from the same event loop) and the process tree is looked
// up once a second, the memory of its processes ten times a second.
import { readdir, readFile } from 'node:fs/promises';

const read = (pid: number, file: string) => readFile(`/proc/${pid}/${file}`, 'utf8').catch(() => '');

/** the browser process started with this --user-data-dir (not its helpers, which carry it too), and every process under it */
export async function processTree(userDataDir: string): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d)).map(Number);
  const kids = new Map<number, number[]>();
  let root: number | undefined;
  await Promise.all(
    pids.map(async (pid) => {
      const stat = await read(pid, 'stat');
      if (!stat) return;
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), pid]);
      if (!stat.includes('(chromium)') && !stat.includes('(chrome)')) return;
      const cmd = await read(pid, 'cmdline');
      if (cmd.includes(`--user-data-dir=${userDataDir}`) && !cmd.includes('--type=')) root = pid;
    }),
  );
  if (root === undefined) return [];
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(kids.get(out[i]!) ?? []));
  return out;
}

export interface ProcessUsage {
  pss: number;
  rss: number;
  /** CPU seconds, user + system */
  cpu: number;
}

export async function usage(pids: readonly number[]): Promise<Map<number, ProcessUsage>> {
  const out = new Map<number, ProcessUsage>();
  const kb = (smaps: string, field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(smaps)?.[1] ?? 0) * 1024;
  await Promise.all(
    pids.map(async (pid) => {
      const [smaps, stat] = await Promise.all([read(pid, 'smaps_rollup'), read(pid, 'stat')]);
      if (!stat) return;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, { pss: kb(smaps, 'Pss'), rss: kb(smaps, 'Rss'), cpu: (Number(f[11]) + Number(f[12])) / 100 });
    }),
  );
  return out;
}

/** what a Chromium process is, from its command line (`--type=`; the browser process has none) */
export type ProcessKind = 'browser' | 'renderer' | 'gpu' | 'other';

export function processKind(cmdline: string): ProcessKind {
  const type = /(?:^|\0| )--type=([\w-]+)/.exec(cmdline)?.[1];
  if (type === undefined) return 'browser';
  if (type === 'renderer') return 'renderer';
  if (type === 'gpu-process') return 'gpu';
  return 'other';
}

/** each process of the browser started with this --user-data-dir, with its kind */
export async function processKinds(userDataDir: string): Promise<Map<number, ProcessKind>> {
  const pids = await processTree(userDataDir);
  const cmds = await Promise.all(pids.map((pid) => read(pid, 'cmdline')));
  return new Map(pids.map((pid, i) => [pid, processKind(cmds[i]!)]));
}

/**
 * Samples the browser's processes until stopped: the peak of their summed PSS, and the CPU seconds
 * they spent meanwhile (a process that ends counts with its last reading).
 */
export async function sampleBrowser(
  userDataDir: string,
): Promise<{ stop(): Promise<{ peakPss: number; cpuSeconds: number }> }> {
  let pids = await processTree(userDataDir);
  const first = await usage(pids);
  const last = new Map<number, ProcessUsage>(first);
  let peak = 0;
  let ticks = 0;
  let busy = false;
  const sample = async () => {
    if (busy) return;
    busy = true;
    if (++ticks % 10 === 0) pids = await processTree(userDataDir);
    const now = await usage(pids);
    for (const [pid, u] of now) last.set(pid, u);
    peak = Math.max(
      peak,
      [...now.values()].reduce((s, u) => s + u.pss, 0),
    );
    busy = false;
  };
  await sample();
  const timer = setInterval(() => void sample(), 100);
  return {
    async stop() {
      clearInterval(timer);
      while (busy) await new Promise((r) => setTimeout(r, 10));
      await sample();
      let cpu = 0;
      for (const [pid, u] of last) cpu += u.cpu - (first.get(pid)?.cpu ?? 0);
      return { peakPss: peak, cpuSeconds: cpu };
    },
  };
}
