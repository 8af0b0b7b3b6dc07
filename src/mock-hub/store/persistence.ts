import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { HubState } from './state-schema.ts';

export const STATE_FILE = 'state.json';

/**
 * Loads the state file, or undefined when there is none yet. A file that does not parse is an
 * error, never silently replaced: saves are atomic, so a broken file means outside tampering.
 */
export function loadState(dir: string): HubState | undefined {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.startsWith(`${STATE_FILE}.tmp-`)) rmSync(join(dir, f), { force: true });
  const file = join(dir, STATE_FILE);
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`mock hub state ${file} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = HubState.safeParse(raw);
  if (!parsed.success)
    throw new Error(`mock hub state ${file} does not match its schema: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}

/**
 * Durable atomic save: write a temp file, fsync it, rename over the old file, fsync the folder.
 * A kill at any point leaves either the old or the new complete file.
 */
export function saveState(dir: string, state: HubState): void {
  const file = join(dir, STATE_FILE);
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, JSON.stringify(state));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
