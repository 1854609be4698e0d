import { watchForNativePageTools } from '../webmcp/watch-for-native-page-tools';

/** What the native watcher needs of the extension API: any call the browser itself answers, on the frame's channel. */
interface CommitAcknowledger {
  i18n: { getAcceptLanguages(): Promise<string[]> };
}

/** The native modelContext, as far as the watcher reads it. */
interface NativeModelContext extends EventTarget {
  getTools(): Promise<{ window?: unknown; source?: unknown }[]>;
}

/**
 * Watches the native modelContext of a document for the first sign of WebMCP (watch-for-native-page-tools.ts), but
 * reads `document.modelContext` only once the browser has certainly taken in this document's commit.
 *
 * Why: Chromium 156 binds a document's WebMCP host in the browser on the first read of `document.modelContext`,
 * through the frame's interface broker, which may overtake the frame's "navigation committed" message. Read at
 * document_start, in a frame whose navigation replaced its initial about:blank (the same RenderFrameHost), the bind
 * can reach the browser while the about:blank is still its current document: if the about:blank had used WebMCP the
 * browser kills the renderer (bad message RFHI_WEBMCP_DUPLICATE_BIND: the tab crashes), if not the host is bound to
 * the about:blank, dropped at the commit, and every WebMCP call of the new document never settles. The page's own
 * scripts read it later, so without this watcher neither happens (docs/platform-notes.md, "Native WebMCP in
 * Chromium"). An extension function call goes over the frame's channel, after the commit message: once the browser
 * has answered it, it has processed the commit too.
 *
 * Tools the page registered before that are caught up with one getTools (a tool of this window counts).
 */
export function watchNativeAfterCommit(win: Window & typeof globalThis, api: CommitAcknowledger, found: () => void): Promise<void> {
  const acknowledged = api.i18n.getAcceptLanguages().catch(() => undefined);
  return acknowledged.then(async () => {
    const native = (win.document as unknown as { modelContext?: NativeModelContext }).modelContext;
    if (!native) return;
    let fired = false;
    const once = () => {
      if (fired) return;
      fired = true;
      found();
    };
    const stop = watchForNativePageTools(win, native, once);
    const tools = await native.getTools().catch(() => []);
    if (tools.some((tool) => (tool.window ?? tool.source) === win)) {
      stop();
      once();
    }
  });
}
