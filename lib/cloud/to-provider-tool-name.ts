/** What every provider accepts as a tool name (OpenAI and Anthropic both allow exactly this). */
const PROVIDER_SAFE = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A tool name every provider accepts: characters outside [a-zA-Z0-9_-] become "_" ("cart.add" → "cart_add"),
 * cut to 64 characters. `taken` holds names already given in this tool set: on a clash a numeric suffix keeps
 * each name unique, so the way back from the provider's name to the page's stays unambiguous.
 */
export function toProviderToolName(name: string, taken?: ReadonlySet<string>): string {
  let safe = PROVIDER_SAFE.test(name) ? name : name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  if (safe === '' || /^_+$/.test(safe)) safe = 'tool';
  if (!taken?.has(safe)) return safe;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${safe.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
