/**
 * Which browser this build is for. Wrapped in a function so tests can mock it: under Vitest,
 * import.meta.env.BROWSER is undefined, and WXT's env values are strings.
 */
export function isFirefox(): boolean {
  return import.meta.env.BROWSER === 'firefox';
}
