// A server under load in a child process: started, asked for its delivery counts over a
// line protocol on stdin/stdout, its CPU time read from /proc, then stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface DeliveryCounts {
  calls: number;
  distinct: number;
  duplicated: number;
}

export interface ServerProcess {
  name: string;
  url: string;
  /** `reset` clears the counts; `stats` returns them. */
  reset(): Promise<void>;
  stats(): Promise<DeliveryCounts>;
  /** CPU seconds (user + system) the process has used so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

const CLOCK_TICKS = 100;

export async function startServerProcess(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<ServerProcess> {
  const child: ChildProcess = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}): ${stderr}`))),
  );
  exited.catch(() => {});
  const next = async (what: string): Promise<string> => {
    const r = await Promise.race([lines.next(), exited]);
    if (r.done) throw new Error(`${name} closed stdout waiting for ${what}: ${stderr}`);
    return r.value;
  };
  const first = await next('its URL');
  const url = /^listening (http:\/\/\S+)$/.exec(first)?.[1];
  if (!url) throw new Error(`${name} said "${first}" instead of its URL`);
  const ask = async (command: string) => {
    child.stdin!.write(`${command}\n`);
    return next(command);
  };
  return {
    name,
    url,
    reset: async () => void (await ask('reset')),
    stats: async () => JSON.parse(await ask('stats')) as DeliveryCounts,
    cpuSeconds() {
      // /proc/<pid>/stat: fields 14 and 15 (after the parenthesized name) are utime and stime in clock ticks.
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    },
  };
}
