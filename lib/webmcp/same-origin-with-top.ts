/**
 * Whether a document may use tools without anyone's delegation: the top, and documents same-origin with it (as the
 * extension's background decides, lib/background/create-tab-registry.ts). Others ask the background. The origin is
 * `window.origin`, so an about:blank or srcdoc frame counts as its creator's.
 */
export function sameOriginWithTop(win: Window): boolean {
  const top = win.top;
  if (!top || top === win) return true;
  try {
    return originOf(top) === originOf(win);
  } catch {
    return false;
  }
}

/** `window.origin` (a creator's for about:blank and srcdoc), else `location.origin`; throws for a cross-origin window. */
function originOf(win: Window): string {
  return (win as { origin?: string }).origin ?? win.location.origin;
}
