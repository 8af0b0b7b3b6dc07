// Installs what a fresh clone is missing: node_modules (npm ci) and Debian packages (Chromium for
// e2e, FastAPI/uvicorn/pydantic for the webhooks bench's peer server).
import { existsSync } from 'node:fs';
import { execSync, spawnSync } from 'node:child_process';

export function ensureNodeModules() {
  const marker = 'node_modules/.package-lock.json';
  if (existsSync(marker)) return;
  // `npm install`, not `npm ci`: npm 11 here writes lockfiles without other platforms' optional
  // binaries (tailwind oxide, unrs resolver), which `npm ci` then refuses as out of sync.
  // The lockfile still pins every version that is installed.
  console.log('[setup] installing npm dependencies (npm install from package-lock.json)...');
  execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
}

/** Installs Debian `packages` with apt-get unless `present()` says they are there already. */
export function ensureDebianPackages(packages, present, what) {
  if (present()) return;
  console.log(`[setup] ${what} missing: installing Debian's ${packages.join(' ')}...`);
  try {
    execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages.join(' ')}`, { stdio: 'inherit' });
  } catch {
    throw new Error(`${what} is not installed and apt-get failed; install ${packages.join(' ')}.`);
  }
  if (!present()) throw new Error(`${what} is still missing after installing ${packages.join(' ')}.`);
}

export function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

export function ensureChromium() {
  const path = chromiumPath();
  ensureDebianPackages(['chromium'], () => existsSync(path), `Chromium (${path}; or set CHROMIUM_PATH)`);
  return path;
}

/** Debian's Python, which the python3-* packages install into (a pyenv or venv python3 on PATH lacks them). */
export function debianPython() {
  return process.env.PYTHON ?? '/usr/bin/python3';
}

/** FastAPI, uvicorn and pydantic for the webhooks bench's peer; returns the python to run it with. */
export function ensurePythonWebStack() {
  const python = debianPython();
  const present = () => spawnSync(python, ['-c', 'import fastapi, uvicorn, pydantic'], { stdio: 'ignore' }).status === 0;
  ensureDebianPackages(['python3-fastapi', 'python3-uvicorn', 'python3-pydantic'], present, `FastAPI, uvicorn and pydantic for ${python}`);
  return python;
}
