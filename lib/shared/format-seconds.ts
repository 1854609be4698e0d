/**
 * Milliseconds as "0.8 s" or "12 s": tenths under ten seconds, whole seconds from there. Shared by the options page
 * and the device test's own wording (lib/storage/device-test-results.ts).
 */
export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${s < 10 ? Math.round(s * 10) / 10 : Math.round(s)} s`;
}
