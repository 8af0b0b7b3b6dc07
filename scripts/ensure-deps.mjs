// Installs what a fresh clone is missing: node_modules (npm ci) and, for e2e, Debian's Chromium.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

export function ensureNodeModules() {
  const marker = 'node_modules/.package-lock.json';
  if (existsSync(marker)) return;
  // `npm install`, not `npm ci`: npm 11 here writes lockfiles without other platforms' optional
  // binaries (tailwind oxide, unrs resolver), which `npm ci` then refuses as out of sync.
  // The lockfile still pins every version that is installed.
  console.log('[setup] installing npm dependencies (npm install from package-lock.json)...');
  execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
}

export function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

export function ensureChromium() {
  const path = chromiumPath();
  if (existsSync(path)) return path;
  console.log(`[setup] ${path} missing: installing Debian's chromium...`);
  try {
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
  } catch {
    throw new Error(`Chromium is not installed at ${path} and apt-get failed; install it or set CHROMIUM_PATH.`);
  }
  return path;
}
