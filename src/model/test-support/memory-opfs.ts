// The origin private file system in memory (Node has none), as the loader uses it: folders, files,
// writable streams, and sync access handles unless `sync: false` (the page, which has none).
// Handles lock their file as Chromium's do: an open sync handle of any mode keeps
// the file from being removed, moved or written through a stream; a read-write one also from
// every other sync handle, read-only ones share the file with each other; getFile() is never
// refused. `refuse` makes every write fail as a full quota would (it may be set midway).
export interface MemoryOpfsOptions {
  refuse?: boolean;
  sync?: boolean;
}

const domError = (message: string, name: string) => new DOMException(message, name);

class MemoryFile {
  data = new Uint8Array(0);
  /** an open read-write sync handle */
  exclusive = false;
  /** open read-only sync handles */
  shared = 0;
  get locked(): boolean {
    return this.exclusive || this.shared > 0;
  }
}

function writeAt(f: MemoryFile, bytes: Uint8Array, at: number): void {
  if (at + bytes.length > f.data.length) {
    const grown = new Uint8Array(at + bytes.length);
    grown.set(f.data);
    f.data = grown;
  }
  f.data.set(bytes, at);
}

class MemoryFileHandle {
  readonly kind = 'file';
  constructor(
    public name: string,
    private readonly parent: MemoryDirectory,
    private readonly file: MemoryFile,
    private readonly opts: MemoryOpfsOptions,
  ) {
    if (opts.sync !== false)
      (this as { createSyncAccessHandle?: unknown }).createSyncAccessHandle = (o?: { mode?: string }) =>
        this.syncHandle(o?.mode === 'read-only');
  }

  private checkUnlocked(): void {
    if (this.file.locked)
      throw domError(`${this.name} is locked by an open access handle`, 'NoModificationAllowedError');
  }

  private refuse(): void {
    if (this.opts.refuse) throw domError('Quota exceeded.', 'QuotaExceededError');
  }

  async getFile(): Promise<File> {
    return new File([this.file.data.slice()], this.name);
  }

  async createWritable(): Promise<WritableStream & { write(d: string | Uint8Array): Promise<void> }> {
    this.checkUnlocked();
    const file = this.file;
    const parts: Uint8Array[] = [];
    const take = (d: string | Uint8Array) => {
      this.refuse();
      parts.push(typeof d === 'string' ? new TextEncoder().encode(d) : d.slice());
    };
    const commit = () => {
      file.data = new Uint8Array(0);
      let at = 0;
      for (const p of parts) writeAt(file, p, (at += p.length) - p.length);
    };
    const stream = new WritableStream<Uint8Array>({ write: take, close: commit });
    return Object.assign(stream, { write: async (d: string | Uint8Array) => take(d), close: async () => commit() });
  }

  private async syncHandle(readOnly: boolean) {
    const file = this.file;
    if (readOnly ? file.exclusive : file.locked)
      throw domError(
        `${this.name}: Access Handles cannot be created if there is another open Access Handle`,
        'NoModificationAllowedError',
      );
    if (readOnly) file.shared++;
    else file.exclusive = true;
    let open = true;
    const live = () => {
      if (!open) throw domError('the access handle is closed', 'InvalidStateError');
    };
    const writable = () => {
      live();
      if (readOnly) throw domError('Cannot write to access handle in read-only mode', 'NoModificationAllowedError');
    };
    return {
      read: (buf: Uint8Array, { at }: { at: number }) => {
        live();
        const part = file.data.subarray(at, at + buf.length);
        buf.set(part);
        return part.length;
      },
      write: (buf: Uint8Array, { at }: { at: number }) => {
        writable();
        this.refuse();
        writeAt(file, buf, at);
        return buf.length;
      },
      truncate: (size: number) => {
        writable();
        file.data = file.data.slice(0, size);
      },
      flush: () => undefined,
      close: () => {
        if (!open) return;
        open = false;
        if (readOnly) file.shared--;
        else file.exclusive = false;
      },
    };
  }

  async move(name: string): Promise<void> {
    this.checkUnlocked();
    this.parent.rename(this.name, name);
    this.name = name;
  }
}

class MemoryDirectory {
  readonly kind = 'directory';
  private readonly children = new Map<string, { file: MemoryFile } | { dir: MemoryDirectory }>();
  constructor(private readonly opts: MemoryOpfsOptions) {}

  async getDirectoryHandle(name: string, o: { create?: boolean } = {}): Promise<MemoryDirectory> {
    let c = this.children.get(name);
    if (!c && o.create) this.children.set(name, (c = { dir: new MemoryDirectory(this.opts) }));
    if (!c || !('dir' in c)) throw domError(`${name} not found`, c ? 'TypeMismatchError' : 'NotFoundError');
    return c.dir;
  }

  async getFileHandle(name: string, o: { create?: boolean } = {}): Promise<MemoryFileHandle> {
    let c = this.children.get(name);
    if (!c && o.create) this.children.set(name, (c = { file: new MemoryFile() }));
    if (!c || !('file' in c)) throw domError(`${name} not found`, c ? 'TypeMismatchError' : 'NotFoundError');
    return new MemoryFileHandle(name, this, c.file, this.opts);
  }

  async removeEntry(name: string, o: { recursive?: boolean } = {}): Promise<void> {
    const c = this.children.get(name);
    if (!c) throw domError(`${name} not found`, 'NotFoundError');
    if ('file' in c && c.file.locked) throw domError(`${name} is locked`, 'NoModificationAllowedError');
    if ('dir' in c && !o.recursive && c.dir.children.size)
      throw domError(`${name} is not empty`, 'InvalidModificationError');
    if ('dir' in c && c.dir.anyLocked()) throw domError(`${name} holds a locked file`, 'NoModificationAllowedError');
    this.children.delete(name);
  }

  rename(from: string, to: string): void {
    const c = this.children.get(from)!;
    this.children.delete(from);
    this.children.set(to, c);
  }

  private anyLocked(): boolean {
    return [...this.children.values()].some((c) => ('file' in c ? c.file.locked : c.dir.anyLocked()));
  }

  async *keys(): AsyncGenerator<string> {
    yield* [...this.children.keys()];
  }

  async *entries(): AsyncGenerator<[string, MemoryFileHandle | MemoryDirectory]> {
    for (const [name, c] of [...this.children])
      yield [name, 'dir' in c ? c.dir : new MemoryFileHandle(name, this, c.file, this.opts)];
  }
}

/** installs an in-memory OPFS as `navigator.storage`; returns what undoes it */
export function installMemoryOpfs(opts: MemoryOpfsOptions = {}): { restore(): void; options: MemoryOpfsOptions } {
  const root = new MemoryDirectory(opts);
  const before = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  Object.defineProperty(globalThis, 'navigator', {
    configurable: true,
    value: { storage: { getDirectory: async () => root } },
  });
  return {
    options: opts,
    restore: () =>
      before
        ? Object.defineProperty(globalThis, 'navigator', before)
        : delete (globalThis as { navigator?: unknown }).navigator,
  };
}
