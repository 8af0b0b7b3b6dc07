// The shapes of onnxruntime's tensor and session that the wrappers use (node and web share them).
/** an onnxruntime tensor: `data` only where `location` is the host (onnxruntime throws on a GPU tensor's data) */
export interface OrtTensorLike {
  readonly dims: readonly number[];
  readonly location?: string;
  readonly data?: unknown;
  readonly gpuBuffer?: unknown;
  getData?(releaseData?: boolean): Promise<unknown>;
  dispose?(): void;
}

export interface OrtSessionLike {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensorLike>>;
  release(): Promise<void>;
}
