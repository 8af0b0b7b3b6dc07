// `npm run bench [-- <target>...]` arguments: argv in, the targets to run out (all when none named).
import { parseCommandLine, UsageError } from '../src/cli/command-line.ts';

export const TARGETS = [
  'hub',
  'webhooks',
  'model',
  'dashboard',
  'preview',
  'convert',
  'gpu',
  'page-memory',
  'vae',
  'vae-page',
  'vae-beside',
  'vae-memory',
] as const;
export type Target = (typeof TARGETS)[number];
/**
 * Run only when named: on SwiftShader in Node the native EP's first forward has not finished in 420 s
 * (docs/model-webgpu.md), so a bench of the whole project would wait on it; on a GPU it is `npm run bench -- gpu`.
 * page-memory generates a checkpoint of gigabytes and loads it in Chromium (minutes; the 42 layers most of an hour).
 * vae decodes the preview's 13 latent frames with the released decoder (76 TFLOP: minutes on 2 cores);
 * vae-page its first batches in Chromium; vae-beside a run and a decode on the preview page, twice; vae-memory decodes a few sizes, a process each (gigabytes each).
 */
const ONLY_WHEN_NAMED: readonly Target[] = ['gpu', 'page-memory', 'vae', 'vae-page', 'vae-beside', 'vae-memory'];

export const BENCH_USAGE = `usage: npm run bench [-- ${TARGETS.join('|')} ...]   (every target but gpu, page-memory and the vae ones when none is named)
  BENCH_TARGET_TIMEOUT_S=<s> bounds each target (default 900)`;

export function parseBenchArgs(argv: readonly string[]): Target[] {
  const { positionals } = parseCommandLine(argv, {}, true);
  const unknown = positionals.filter((p) => !(TARGETS as readonly string[]).includes(p));
  if (unknown.length)
    throw new UsageError(`unknown bench target(s): ${unknown.join(', ')}; choose from ${TARGETS.join(', ')}`);
  return positionals.length
    ? TARGETS.filter((t) => positionals.includes(t))
    : TARGETS.filter((t) => !ONLY_WHEN_NAMED.includes(t));
}
