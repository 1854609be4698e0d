/** Sizes as people read them: "570 MB", "1.4 GB", "12 KB". Binary units, as the browser's storage figures are. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${bytes} bytes`;
  return `${value >= 10 || unit < 3 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
