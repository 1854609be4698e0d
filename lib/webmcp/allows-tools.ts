/**
 * The `tools` permission policy, as Chromium applies it to a frame's WebMCP registrations: its default allowlist is
 * `'self'`, so a child frame may register tools only when it is same-origin with its parent, or when its `<iframe>`
 * delegates the feature with `allow="tools"` (whose allowlist defaults to `'src'`, the origin of the iframe's src).
 * A frame whose parent may not use tools may not either. The background follows the same rule through this check
 * (lib/background/create-frame-delegation.ts), and so does a document that can read all its ancestors
 * (lib/webmcp/same-origin-ancestry.ts).
 */

/**
 * Whether an `<iframe allow=…>` with `src` lets a document of `childOrigin` use tools, inside a parent document of
 * `parentOrigin` that may use them itself. Origins are serialised (`https://a.example:8443`); 'null' (opaque: a
 * sandboxed frame) matches `*` and `'src'`, as Chromium's allowlists match an opaque document of the iframe that
 * declares them (`matches_opaque_src`; probed in Chromium 156: a sandboxed `<iframe allow="tools">` registers), and
 * never `'self'` nor an origin.
 */
export function allowsTools(allow: string, src: string, childOrigin: string, parentOrigin: string): boolean {
  const allowlist = toolsAllowlist(allow);
  if (allowlist === undefined) return childOrigin !== 'null' && childOrigin === parentOrigin;
  return allowlist.some((token) => {
    if (token === '*') return true;
    if (token === "'src'" && childOrigin === 'null') return true;
    if (childOrigin === 'null') return false;
    if (token === "'self'") return childOrigin === parentOrigin;
    if (token === "'src'") return childOrigin === originOf(src);
    if (token === "'none'") return false;
    return childOrigin === originOf(token);
  });
}

/** The allowlist of the `tools` directive of an `allow` attribute (`['\'src\'']` when it names none), or undefined. */
export function toolsAllowlist(allow: string): string[] | undefined {
  let found: string[] | undefined;
  for (const directive of allow.split(';')) {
    const [feature, ...allowlist] = directive.trim().split(/\s+/);
    // As in Chromium, the first declaration of a feature wins.
    if (feature === 'tools' && found === undefined) found = allowlist.length > 0 ? allowlist : ["'src'"];
  }
  return found;
}

function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
