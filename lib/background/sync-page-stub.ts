/**
 * Chrome's page-world stub (entrypoints/page-stub.ts) is registered at run time, not in the manifest, so that a
 * browser with native WebMCP gets nothing at all in its pages' own world: the stub is registered while the
 * browser is not known to have WebMCP, and removed once the agent host (a document, which can tell) reports that
 * it has. Firefox has no native WebMCP and declares the stub in its manifest (wxt.config.ts).
 */

/** The id and file of the registered stub. */
const PAGE_STUB_ID = 'webmcp-agent-page-stub';

/** The slice of chrome.scripting this needs. */
interface ContentScriptRegistry {
  getRegisteredContentScripts(filter: { ids: string[] }): Promise<{ id: string }[]>;
  registerContentScripts(scripts: Record<string, unknown>[]): Promise<void>;
  unregisterContentScripts(filter: { ids: string[] }): Promise<void>;
}

/** Keeps the stub registered exactly when `wanted`; calls run one after another. */
export function createPageStubSync(registry: ContentScriptRegistry): (wanted: boolean) => Promise<void> {
  let queue: Promise<void> = Promise.resolve();
  const sync = async (wanted: boolean) => {
    const registered = (await registry.getRegisteredContentScripts({ ids: [PAGE_STUB_ID] })).length > 0;
    if (wanted && !registered) {
      await registry.registerContentScripts([
        {
          id: PAGE_STUB_ID,
          js: ['page-stub.js'],
          matches: ['<all_urls>'],
          allFrames: true,
          // about:blank and srcdoc frames, as the manifest's match_about_blank did.
          matchOriginAsFallback: true,
          runAt: 'document_start',
          world: 'MAIN',
          persistAcrossSessions: true,
        },
      ]);
    }
    if (!wanted && registered) await registry.unregisterContentScripts({ ids: [PAGE_STUB_ID] });
  };
  return (wanted) => {
    const next = queue.then(() => sync(wanted));
    queue = next.catch(() => undefined);
    return next;
  };
}
