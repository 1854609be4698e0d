/** Annotations as native reports them once a page gives any: every known hint, false unless the page said true. */
export function readToolAnnotations(value: unknown): Record<string, boolean> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const out: Record<string, boolean> = {};
  for (const key of ['consequentialHint', 'debugging', 'readOnlyHint', 'untrustedContentHint']) {
    out[key] = Boolean((value as Record<string, unknown>)[key]);
  }
  return out;
}
