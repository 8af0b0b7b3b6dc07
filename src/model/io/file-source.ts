// Where checkpoint files come from: a local folder (node) or a hub over fetch (anywhere).

export interface DownloadProgress {
  file: string;
  loaded: number;
  /** null when the server does not say */
  total: number | null;
}

export interface ReadOptions {
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
}

/** a file read in parts: safetensors headers first, tensors when a session needs them */
export interface RandomAccessFile {
  size: number;
  /** the version of the file where its server says one (a hub's ETag) */
  etag?: string | null;
  /** bytes [offset, offset + length) */
  read(offset: number, length: number, opts?: ReadOptions): Promise<Uint8Array>;
  /** where onnxruntime can read the file itself (Node: its path on disk) */
  path?: string;
  /** the whole file as a Blob that onnxruntime-web reads slice by slice (browser: cached or streamed) */
  blob?(): Blob;
}

export interface FileSource {
  /** a human-readable location, for error messages */
  describe(file: string): string;
  /** the whole file; null when it does not exist */
  read(file: string, opts?: ReadOptions): Promise<Uint8Array | null>;
  /** the file for reads in parts (null when it does not exist); sources without it are read whole */
  open?(file: string, opts?: ReadOptions): Promise<RandomAccessFile | null>;
}
