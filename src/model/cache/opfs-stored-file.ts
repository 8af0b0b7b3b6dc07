// One version of a hub file in the origin private file system: a folder with a file per chunk.
// A worker writes chunks through sync access handles and reads them through read-only ones, which
// other readers may share (the fast way back: docs/model-preview.md); only workers have them, and
// only the workers read and write the cache. An open sync handle of any mode keeps a file from being removed, moved or written by anyone else,
// a read-write one also from other sync handles; getFile() is never refused.
import { memoizePromise } from '../io/memoize-promise.ts';
import { writeMeta, writeText } from './opfs-layout.ts';
import { StoredChunks, type StoredMeta } from './stored-chunks.ts';

/** the parts of FileSystemSyncAccessHandle used here (workers only) */
interface SyncHandle {
  read(buffer: Uint8Array, opts: { at: number }): number;
  write(buffer: Uint8Array, opts: { at: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}
/** 'read-only' handles share their file (Chromium 121 on; earlier versions ignore the mode) */
type FileHandle = FileSystemFileHandle & {
  createSyncAccessHandle(opts?: { mode: 'readwrite' | 'read-only' }): Promise<SyncHandle>;
  move?(name: string): Promise<void>;
};

/** the file beside chunk `i` that holds its checksum */
const sumName = (i: number) => `${i}.sum`;

export class OpfsStoredFile extends StoredChunks {
  /** read-only handles of the chunks read so far: each lookup is a round trip to the browser process */
  private readonly handles = new Map<number, Promise<SyncHandle>>();

  constructor(
    private readonly dir: FileSystemDirectoryHandle,
    meta: StoredMeta,
  ) {
    super(meta);
  }

  protected async storedLength(i: number) {
    const f = await this.dir.getFileHandle(String(i)).catch(() => null);
    return f ? (await f.getFile()).size : null;
  }

  /**
   * Written beside the chunk (renamed by `keep`), so a chunk is whole or absent. When the write
   * fails (quota, a lost connection) the body is cancelled and the partial file removed.
   */
  protected async writeAside(i: number, body: ReadableStream<Uint8Array>) {
    const reader = body.getReader();
    try {
      const f = (await this.dir.getFileHandle(partName(i), { create: true })) as FileHandle;
      return await writeFrom(reader, f);
    } catch (e) {
      await reader.cancel().catch(() => undefined);
      await this.dropAside(i);
      throw e;
    }
  }

  protected async dropAside(i: number) {
    await this.dir.removeEntry(partName(i)).catch(() => undefined);
  }

  protected async keep(i: number, sum: string) {
    await writeText(this.dir, sumName(i), sum);
    await this.dir.removeEntry(String(i)).catch(() => undefined);
    const f = (await this.dir.getFileHandle(partName(i))) as FileHandle;
    await f.move!(String(i));
  }

  protected async readRange(i: number, from: number, to: number) {
    const h = await memoizePromise(this.handles, i, () => this.readOnlyHandle(i));
    const out = new Uint8Array(to - from);
    return out.subarray(0, h.read(out, { at: from }));
  }

  protected async readSum(i: number) {
    const f = await this.dir.getFileHandle(sumName(i)).catch(() => null);
    return f ? (await f.getFile()).text() : null;
  }

  /** the chunk's handle is let go of first: an open one keeps the file */
  protected async remove(i: number) {
    const h = this.handles.get(i);
    this.handles.delete(i);
    (await h?.catch(() => null))?.close();
    await this.dir.removeEntry(String(i));
    await this.dir.removeEntry(sumName(i)).catch(() => undefined);
  }

  protected async saveMeta(meta: StoredMeta) {
    await writeMeta(this.dir, meta);
  }

  /**
   * A read-only sync handle of chunk `i`, kept for the next reads. Awaited here so that `f` stays referenced until it arrives: Chromium drops the pending request
   * of a file handle that is garbage-collected meanwhile, and the promise never settles (the
   * real-width preview's reads of a stored chunk waited for ever, its worker idle).
   */
  private async readOnlyHandle(i: number): Promise<SyncHandle> {
    const f = (await this.dir.getFileHandle(String(i))) as FileHandle;
    return await f.createSyncAccessHandle({ mode: 'read-only' });
  }

  /** closes the sync handles (each keeps its chunk file from being removed, so from a cleared cache) */
  async release(): Promise<void> {
    const open = [...this.handles.values()];
    this.handles.clear();
    for (const h of await Promise.allSettled(open)) if (h.status === 'fulfilled') h.value.close();
  }
}

const partName = (i: number) => `${i}.part`;

/** the reader's bytes into file `f` (emptied first); returns how many were written */
async function writeFrom(reader: ReadableStreamDefaultReader<Uint8Array>, f: FileHandle): Promise<number> {
  let written = 0;
  const h = await f.createSyncAccessHandle();
  try {
    h.truncate(0);
    for (let r = await reader.read(); !r.done; r = await reader.read()) written += h.write(r.value, { at: written });
    h.flush();
  } finally {
    h.close();
  }
  return written;
}
