/** Saves text as a file through a temporary object URL (no server round trip). */
export function saveText(text: string, filename: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
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
