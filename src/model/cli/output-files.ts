// Where the commands write: checked before any work, written beside the final name and renamed
// into place, so a failed or interrupted command leaves no half-written file or folder.
import { statSync } from 'node:fs';
import { readdir, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from './flags.ts';

/** a file the command will write: its folder exists, and it is not a folder itself */
export function checkOutputFile(flag: string, file: string): void {
  const dir = path.dirname(path.resolve(file));
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`--${flag} ${file}: the folder ${dir} does not exist`);
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`--${flag} ${file}: is a folder; name a file`);
}

/** a folder the command will fill: new, or empty (an older checkpoint's files would mix with the new ones) */
export async function checkOutputFolder(flag: string, dir: string): Promise<void> {
  const parent = path.dirname(path.resolve(dir));
  if (!statSync(parent, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`--${flag} ${dir}: the folder ${parent} does not exist`);
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st) return;
  if (!st.isDirectory()) throw new UsageError(`--${flag} ${dir}: is a file; name a folder`);
  if ((await readdir(dir)).length)
    throw new UsageError(`--${flag} ${dir}: the folder is not empty; name a new or an empty one`);
}

const partial = (target: string) => path.join(path.dirname(target), `.${path.basename(target)}.partial-${process.pid}`);

/**
 * Runs `write` with a temporary name for each target (files or folders, siblings of them), then
 * renames them all into place; on failure removes what was written.
 */
export async function writeInPlace(
  targets: readonly string[],
  write: (temporary: string[]) => Promise<void>,
): Promise<void> {
  const temporary = targets.map(partial);
  try {
    await write(temporary);
    for (const [i, target] of targets.entries()) {
      // an empty folder the user named is replaced by the written one (checkOutputFolder let only an empty one through)
      if (statSync(temporary[i]!).isDirectory() && statSync(target, { throwIfNoEntry: false })?.isDirectory())
        await rmdir(target);
      await rename(temporary[i]!, target);
    }
  } catch (e) {
    await Promise.all(temporary.map((t) => rm(t, { recursive: true, force: true })));
    throw e;
  }
}
