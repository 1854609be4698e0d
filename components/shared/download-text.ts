/**
 * Saves text as a file through the browser's download (an object URL clicked as a link): nothing is fetched,
 * so the extension pages' CSP stays closed.
 */
export function downloadText(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: the download has taken the blob by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
