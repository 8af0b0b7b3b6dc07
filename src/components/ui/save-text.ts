/** Saves a blob as a file through a temporary object URL (no server round trip). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // The click has already handed the blob to the download; free it a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves text as a file (saveBlob). */
export function saveText(text: string, filename: string, type = 'application/json'): void {
  saveBlob(new Blob([text], { type }), filename);
}
