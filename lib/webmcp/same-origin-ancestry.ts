import { allowsTools } from './allows-tools';

/**
 * Whether a document may use tools without anyone's delegation (the `tools` permissions policy, allows-tools.ts):
 * the top, and a document whose every ancestor is of its own origin with no `<iframe allow>` on the way that takes
 * tools away. Any other document asks the extension's background, which decides from the parents' side
 * (lib/background/create-frame-delegation.ts). A document same-origin with the top below a frame of another origin
 * asks too: the policy is inherited down the tree, so that frame must have been delegated tools (and have delegated
 * them on). The origin is `window.origin`, so an about:blank or srcdoc frame counts as its creator's.
 */
export function sameOriginAncestry(win: Window): boolean {
  let origin: string;
  try {
    origin = originOf(win);
  } catch {
    return false;
  }
  for (let child = win; child.parent && child.parent !== child; child = child.parent) {
    try {
      if (originOf(child.parent) !== origin) return false;
    } catch {
      // A cross-origin ancestor: its origin cannot be read.
      return false;
    }
    // The element is readable from here, its parent being of this origin; `frameElement` is null for a frame whose
    // embedder is of another origin, handled above.
    const element = child.frameElement;
    if (element?.tagName === 'IFRAME') {
      const allow = element.getAttribute('allow') ?? '';
      if (!allowsTools(allow, (element as HTMLIFrameElement).src, origin, origin)) return false;
    }
  }
  return true;
}

/** `window.origin` (a creator's for about:blank and srcdoc), else `location.origin`; throws for a cross-origin window. */
function originOf(win: Window): string {
  return (win as { origin?: string }).origin ?? win.location.origin;
}
