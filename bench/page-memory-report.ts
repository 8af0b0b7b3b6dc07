// The page-memory bench's bookkeeping: which stage of the page's load a reading belongs to (from
// the page's status line), the page's JS + WASM from performance.measureUserAgentSpecificMemory(),
// each stage's peaks, and the figures.
import type { ProcessKind } from './browser-processes.ts';
import { figure, type Figure } from './figure.ts';

/** issue 23: the page's JavaScript + WASM stays under 1.5 GB (10^9 bytes) whatever the model size */
export const PAGE_LIMIT_BYTES = 1.5e9;
const MIB = 2 ** 20;

export const STAGES = {
  idle: 'before the run',
  load: 'load (headers)',
  convert: 'stream + convert',
  session: 'session',
  forward: 'forward',
  done: 'done',
} as const;

/**
 * The stage a status line tells (panels/run-panel.tsx, worker/run-events.ts). "Running: forward pass" is the
 * run's start before any session, and the forward itself once a session stage has been seen.
 */
export function stageOf(status: string, previous: string | null): string {
  const segment = /session: segment (\d+) of (\d+)/.exec(status);
  if (segment) return `segment ${segment[1]} of ${segment[2]}`;
  if (/creating the \w+ session/.test(status)) return STAGES.session;
  if (/building the ONNX graph/.test(status)) return STAGES.convert;
  if (/^Loading the model/.test(status)) return STAGES.load;
  if (/^Running: /.test(status)) {
    const afterSessions = previous !== null && (previous === STAGES.session || previous.startsWith('segment '));
    return afterSessions || previous === STAGES.forward ? STAGES.forward : (previous ?? STAGES.load);
  }
  if (/^Model loaded/.test(status)) return STAGES.done;
  if (/loads when you run it/.test(status)) return STAGES.idle;
  return previous ?? STAGES.idle;
}

/** performance.measureUserAgentSpecificMemory()'s result (the fields read here) */
export interface MeasureMemoryResult {
  bytes: number;
  breakdown: { bytes: number; attribution: { scope: string; url?: string }[]; types: string[] }[];
}

export interface PageMemory {
  /** everything the page's agent holds: its window, its workers, what they share, the DOM */
  total: number;
  window: number;
  /** dedicated workers (the preview's model worker and its planner) */
  workers: number;
}

export function pageMemory(r: MeasureMemoryResult): PageMemory {
  const sum = (scope: RegExp) =>
    r.breakdown.filter((b) => b.attribution.some((a) => scope.test(a.scope))).reduce((s, b) => s + b.bytes, 0);
  return { total: r.bytes, window: sum(/^Window$/), workers: sum(/Worker/) };
}

export type ProcessMemory = Record<ProcessKind, { pss: number; rss: number }>;

/**
 * The processes' memory by kind. `renderer` is the page's: the renderer with the most PSS (the
 * page and its workers run there); Chromium's other renderers (its WebUI, a spare) count in `other`.
 */
export function byKind(processes: readonly { kind: ProcessKind; pss: number; rss: number }[]): ProcessMemory {
  const m: ProcessMemory = {
    browser: { pss: 0, rss: 0 },
    renderer: { pss: 0, rss: 0 },
    gpu: { pss: 0, rss: 0 },
    other: { pss: 0, rss: 0 },
  };
  const renderers = processes.filter((p) => p.kind === 'renderer').sort((a, b) => b.pss - a.pss);
  for (const p of processes) {
    const k = p.kind !== 'renderer' ? m[p.kind] : p === renderers[0] ? m.renderer : m.other;
    k.pss += p.pss;
    k.rss += p.rss;
  }
  return m;
}

export interface Reading<T> {
  /** seconds since the run was started */
  t: number;
  stage: string;
  value: T;
}

export interface StagePeaks {
  stage: string;
  fromS: number;
  toS: number;
  /** the highest page reading in the stage (null: none was taken in it) */
  page: PageMemory | null;
  /** the highest PSS of each kind of process, and of all of them together at one reading */
  pss: Record<ProcessKind | 'all', number>;
  rss: Record<ProcessKind | 'all', number>;
}

const KINDS: readonly ProcessKind[] = ['browser', 'renderer', 'gpu', 'other'];
const zeros = (): Record<ProcessKind | 'all', number> => ({ browser: 0, renderer: 0, gpu: 0, other: 0, all: 0 });

/** each stage's peaks, stages in the order they began (a stage seen twice counts as one) */
export function stagePeaks(
  page: readonly Reading<PageMemory>[],
  procs: readonly Reading<ProcessMemory>[],
): StagePeaks[] {
  const out = new Map<string, StagePeaks>();
  const at = (stage: string, t: number) => {
    let s = out.get(stage);
    if (!s) out.set(stage, (s = { stage, fromS: t, toS: t, page: null, pss: zeros(), rss: zeros() }));
    s.fromS = Math.min(s.fromS, t);
    s.toS = Math.max(s.toS, t);
    return s;
  };
  const all = [...page.map((r) => ({ ...r, page: r.value })), ...procs.map((r) => ({ ...r, procs: r.value }))];
  for (const r of all.sort((a, b) => a.t - b.t)) {
    const s = at(r.stage, r.t);
    if ('page' in r && (!s.page || r.page.total > s.page.total)) s.page = r.page;
    if ('procs' in r)
      for (const field of ['pss', 'rss'] as const) {
        let sum = 0;
        for (const k of KINDS) {
          sum += r.procs[k][field];
          s[field][k] = Math.max(s[field][k], r.procs[k][field]);
        }
        s[field].all = Math.max(s[field].all, sum);
      }
  }
  return [...out.values()];
}

/** the peaks over every stage */
export function overall(stages: readonly StagePeaks[]): StagePeaks {
  const page = stages
    .map((s) => s.page)
    .reduce<PageMemory | null>((a, p) => (p && (!a || p.total > a.total) ? p : a), null);
  const max = (field: 'pss' | 'rss') => {
    const m = zeros();
    for (const s of stages) for (const k of [...KINDS, 'all'] as const) m[k] = Math.max(m[k], s[field][k]);
    return m;
  };
  return {
    stage: 'all',
    fromS: Math.min(...stages.map((s) => s.fromS)),
    toS: Math.max(...stages.map((s) => s.toS)),
    page,
    pss: max('pss'),
    rss: max('rss'),
  };
}

const mib = (b: number) => b / MIB;

/** one figure per stage and measure, then the run's peaks with the page's against the 1.5 GB target */
export function pageMemoryFigures(bench: string, label: string, stages: readonly StagePeaks[]): Figure[] {
  const out: Figure[] = [];
  for (const s of stages) {
    const name = `${label} ${s.stage}`;
    out.push(figure(bench, `${name}: seconds`, s.toS - s.fromS, 's'));
    if (s.page)
      out.push(
        figure(
          bench,
          `${name}: peak page JS + WASM (workers)`,
          `${mib(s.page.total).toFixed(0)} (${mib(s.page.workers).toFixed(0)})`,
          'MiB',
        ),
      );
    if (s.pss.all > 0)
      out.push(
        figure(
          bench,
          `${name}: peak PSS renderer / GPU / browser / other / all`,
          (['renderer', 'gpu', 'browser', 'other', 'all'] as const).map((k) => mib(s.pss[k]).toFixed(0)).join(' / '),
          'MiB',
        ),
      );
  }
  if (!stages.length) return out;
  const o = overall(stages);
  if (o.page) {
    out.push(
      figure(bench, `${label} peak page JS + WASM`, mib(o.page.total), 'MiB', {
        op: '<',
        value: Number(mib(PAGE_LIMIT_BYTES).toFixed(1)),
      }),
      figure(bench, `${label} peak page JS + WASM: the workers' part then`, mib(o.page.workers), 'MiB'),
    );
  } else out.push(figure(bench, `${label} peak page JS + WASM`, 'no reading', ''));
  out.push(
    figure(bench, `${label} peak renderer PSS (page + worker)`, mib(o.pss.renderer), 'MiB'),
    figure(bench, `${label} peak GPU process PSS`, mib(o.pss.gpu), 'MiB'),
    figure(bench, `${label} peak PSS of all Chromium processes`, mib(o.pss.all), 'MiB'),
    figure(
      bench,
      `${label} peak RSS renderer / GPU process`,
      `${mib(o.rss.renderer).toFixed(0)} / ${mib(o.rss.gpu).toFixed(0)}`,
      'MiB',
    ),
  );
  return out;
}

/** where the run ended: the last page reading and the last reading of the processes */
export function finalFigures(
  bench: string,
  label: string,
  page: Reading<PageMemory> | undefined,
  procs: Reading<ProcessMemory> | undefined,
): Figure[] {
  const out: Figure[] = [];
  if (page)
    out.push(
      figure(
        bench,
        `${label} at the end (${page.stage}, ${page.t.toFixed(0)} s): page JS + WASM`,
        mib(page.value.total),
        'MiB',
      ),
    );
  if (procs)
    out.push(
      figure(
        bench,
        `${label} at the end (${procs.stage}, ${procs.t.toFixed(0)} s): PSS renderer / GPU / all`,
        [procs.value.renderer.pss, procs.value.gpu.pss, Object.values(procs.value).reduce((s, k) => s + k.pss, 0)]
          .map((b) => mib(b).toFixed(0))
          .join(' / '),
        'MiB',
      ),
    );
  return out;
}
