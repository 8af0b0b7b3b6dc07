// Installs what a fresh clone is missing: node_modules (npm ci) and Debian packages (Chromium for
// e2e, FastAPI/uvicorn/pydantic/uvloop/httptools for the webhooks bench's peer server).
import { existsSync } from 'node:fs';
import { execSync, spawnSync } from 'node:child_process';

export function ensureNodeModules() {
  const marker = 'node_modules/.package-lock.json';
  if (existsSync(marker)) return;
  // `npm install`, not `npm ci`: npm 11 here writes lockfiles without other platforms' optional
  // binaries (tailwind oxide, unrs resolver), which `npm ci` then refuses as out of sync.
  // The lockfile still pins every version that is installed.
  // onnxruntime-node's postinstall reads ONNXRUNTIME_NODE_INSTALL (script/install-utils.js): `skip`
  // keeps it from downloading the CUDA provider on npm versions that ignore package.json's
  // allowScripts (npm 11 honours it: the script does not run at all).
  console.log('[setup] installing npm dependencies (npm install from package-lock.json)...');
  execSync('npm install --no-audit --no-fund', {
    stdio: 'inherit',
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
  });
}

/**
 * Installs Debian `packages` with apt-get (as root: `apt-get update`, then `apt-get install -y`) unless
 * `present()` says they are there already. Everything it prints goes to stderr: the bench's stdout
 * carries only its JSON figures.
 */
export function ensureDebianPackages(packages, present, what) {
  if (present()) return;
  console.error(
    `[setup] ${what} missing: running apt-get update && apt-get install -y ${packages.join(' ')} (Debian packages, needs root)...`,
  );
  try {
    execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages.join(' ')}`, {
      stdio: ['ignore', process.stderr, process.stderr],
    });
  } catch {
    throw new Error(
      `${what} is not installed and apt-get failed; install ${packages.join(' ')} (as root: apt-get install ${packages.join(' ')}).`,
    );
  }
  if (!present()) throw new Error(`${what} is still missing after installing ${packages.join(' ')}.`);
  console.error(`[setup] installed ${packages.join(' ')}.`);
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

/**
 * FastAPI, uvicorn and pydantic for the webhooks bench's peer, and uvloop and httptools, which
 * uvicorn takes when installed (the peer at its fastest); returns the python to run it with.
 */
export function ensurePythonWebStack() {
  const python = debianPython();
  const present = () =>
    spawnSync(python, ['-c', 'import fastapi, uvicorn, pydantic, uvloop, httptools'], { stdio: 'ignore' }).status === 0;
  const packages = ['python3-fastapi', 'python3-uvicorn', 'python3-pydantic', 'python3-uvloop', 'python3-httptools'];
  ensureDebianPackages(packages, present, `FastAPI, uvicorn (with uvloop and httptools) and pydantic for ${python}`);
  return python;
}
