/**
 * Hands `adopt` the window behind every `contentWindow` and `contentDocument` the page reads from an `<iframe>`,
 * before the page gets it: how the page-world stub reaches the initial about:blank document of a frame whose `src`
 * is still loading, where the browser runs no content script (it commits no navigation), but which native WebMCP
 * gives a `modelContext` all the same (issue 36; docs/webmcp-conformance.md, "Removed and initial documents").
 *
 * The getters stay the browser's: each calls the original and returns what it returned, whatever `adopt` does or
 * throws (a cross-origin window throws on the first read of anything: it is never adopted). Only `HTMLIFrameElement`:
 * building more interfaces for every frame's world at document_start costs every page (docs/architecture.md, "The
 * lazy bridge"), and a window reached through `window[i]` or `window.frames` cannot be watched by script at all.
 */
export function watchFrameWindows(win: Window & typeof globalThis, adopt: (child: Window) => void): void {
  const proto = win.HTMLIFrameElement.prototype;
  for (const key of ['contentWindow', 'contentDocument'] as const) {
    const get = Object.getOwnPropertyDescriptor(proto, key)?.get as ((this: unknown) => any) | undefined;
    if (!get) continue;
    // An accessor like the browser's (enumerable, configurable, no setter), its getter named "get contentWindow".
    const hooked = {
      get [key](): unknown {
        const value = get.call(this);
        try {
          adopt(key === 'contentWindow' ? value : value.defaultView);
        } catch {
          // Null, or a window of another origin: nothing to adopt.
        }
        return value;
      },
    };
    Object.defineProperty(proto, key, Object.getOwnPropertyDescriptor(hooked, key) as PropertyDescriptor);
  }
}
