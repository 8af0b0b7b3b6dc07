// Where checkpoint files come from: a local folder (node) or a hub over fetch (anywhere).

export interface DownloadProgress {
  file: string;
  loaded: number;
  /** null when the server does not say */
  total: number | null;
}

export interface FileSource {
  /** a human-readable location, for error messages */
  describe(file: string): string;
  /** null when the file does not exist */
  read(file: string, opts?: { onProgress?: (p: DownloadProgress) => void; signal?: AbortSignal }): Promise<Uint8Array | null>;
}
