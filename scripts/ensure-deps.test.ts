// ensureDebianPackages runs apt-get only when something is missing, and keeps stdout clean: the
// bench's stdout is one JSON line per figure. A stand-in apt-get on PATH plays Debian's.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const module = fileURLToPath(new URL('./ensure-deps.mjs', import.meta.url));
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Runs ensureDebianPackages in a child whose apt-get is a script that says what it was asked and exits with `aptExit`. */
function ensureWithFakeApt(aptExit: number, installedBefore = false) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ensure-deps-'));
  dirs.push(dir);
  const marker = path.join(dir, 'installed');
  if (installedBefore) writeFileSync(marker, '');
  const apt = path.join(dir, 'apt-get');
  writeFileSync(
    apt,
    `#!/bin/sh\necho "apt-get $*" >> "${dir}/calls"\necho "apt chatter $1"\n[ "$1" = install ] && [ ${aptExit} = 0 ] && touch "${marker}"\nexit ${aptExit}\n`,
  );
  chmodSync(apt, 0o755);
  const script = `import { ensureDebianPackages } from ${JSON.stringify(module)};
import { existsSync } from 'node:fs';
try { ensureDebianPackages(['python3-x', 'python3-y'], () => existsSync(${JSON.stringify(marker)}), 'X and Y'); console.error('ENSURED'); }
catch (e) { console.error('THREW ' + e.message); }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
  });
  const calls = existsSync(path.join(dir, 'calls'))
    ? spawnSync('cat', [path.join(dir, 'calls')], { encoding: 'utf8' }).stdout
    : '';
  return { stdout: r.stdout, stderr: r.stderr, calls, installed: existsSync(marker) };
}

describe('ensureDebianPackages', () => {
  it('installs what is missing with apt-get, saying so on stderr and writing nothing to stdout', () => {
    const r = ensureWithFakeApt(0);
    expect(r.installed).toBe(true);
    expect(r.calls).toBe('apt-get update -qq\napt-get install -y -qq python3-x python3-y\n');
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('X and Y missing: running apt-get update && apt-get install -y python3-x python3-y');
    expect(r.stderr).toContain('apt chatter install');
    expect(r.stderr).toContain('ENSURED');
  });

  it('does not run apt-get when the packages are there', () => {
    const r = ensureWithFakeApt(0, true);
    expect(r.calls).toBe('');
    expect(r.stdout + r.stderr).toBe('ENSURED\n');
  });

  it('names the packages to install by hand when apt-get fails', () => {
    const r = ensureWithFakeApt(100);
    expect(r.installed).toBe(false);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('THREW X and Y is not installed and apt-get failed; install python3-x python3-y');
  });
});
