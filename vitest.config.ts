import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

const FOLDERS = ['src', 'bench', 'scripts'];
const INCLUDE = FOLDERS.flatMap((d) => [`${d}/**/*.test.ts`, `${d}/**/*.test.tsx`]);

/**
 * Test files that replace a module with `vi.mock`: each runs with a module registry of its own. The
 * others share their worker's registry (`isolate: false`), so a module is imported once per worker
 * rather than once per file; every test file that fakes timers or spies restores them after each test.
 */
const MOCKING = FOLDERS.flatMap((d) =>
  readdirSync(d, { recursive: true, encoding: 'utf8' })
    .map((f) => `${d}/${f}`)
    .filter((f) => /\.test\.tsx?$/.test(f) && /\bvi\.mock\(/.test(readFileSync(f, 'utf8'))),
);

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on two cores, with the other idle while
    // that worker waits on the child processes and servers many tests start.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: INCLUDE, exclude: [...configDefaults.exclude, ...MOCKING], isolate: false },
      },
      ...(MOCKING.length ? [{ extends: true as const, test: { name: 'isolated', include: MOCKING } }] : []),
    ],
  },
});
