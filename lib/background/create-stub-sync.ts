/**
 * Chrome's stubs that depend on whether the browser has native WebMCP are registered at run time, not in the
 * manifest (docs/architecture.md, "The lazy connector"):
 * - without native WebMCP, the page-world stub (entrypoints/page-stub.ts), so that `document.modelContext` exists
 *   before page scripts run;
 * - with it, nothing in the page's own world, and the isolated-world watcher of the native modelContext
 *   (entrypoints/native-stub.ts) instead.
 * The service worker cannot tell which browser it is in; the agent host, a document, can, and reports it
 * (`router/native-webmcp`). Until then the browser is taken to lack it. Firefox has no native WebMCP and declares
 * the page-world stub in its manifest (wxt.config.ts).
 */

/**
 * Where the service worker keeps, in storage.local, whether the browser has native WebMCP as the agent host last
 * reported it: a worker that starts again (a restart, an idle worker woken) registers the right stub at once.
 */
export const NATIVE_WEBMCP_KEY = 'bridge.nativeWebMcp';

/** One stub Chrome registers at run time. */
interface StubScript {
  id: string;
  js: string[];
  world: 'MAIN' | 'ISOLATED';
}

/** The page-world stub, registered where the browser has no native WebMCP. */
export const PAGE_STUB: StubScript = { id: 'webmcp-agent-page-stub', js: ['page-stub.js'], world: 'MAIN' };
/** The native modelContext's watcher, registered where the browser has native WebMCP. */
export const NATIVE_STUB: StubScript = { id: 'webmcp-agent-native-stub', js: ['native-stub.js'], world: 'ISOLATED' };

/** The slice of chrome.scripting this needs. */
export interface ContentScriptRegistry {
  getRegisteredContentScripts(filter: { ids: string[] }): Promise<{ id: string }[]>;
  registerContentScripts(scripts: Record<string, unknown>[]): Promise<void>;
  unregisterContentScripts(filter: { ids: string[] }): Promise<void>;
}

/**
 * Keeps registered exactly the stub for `native` (true: the browser has native WebMCP), and not the other; calls
 * run one after another.
 */
export function createStubSync(registry: ContentScriptRegistry): (native: boolean) => Promise<void> {
  let queue: Promise<void> = Promise.resolve();
  const sync = async (native: boolean) => {
    const [wanted, unwanted] = native ? [NATIVE_STUB, PAGE_STUB] : [PAGE_STUB, NATIVE_STUB];
    const registered = new Set(
      (await registry.getRegisteredContentScripts({ ids: [PAGE_STUB.id, NATIVE_STUB.id] })).map((script) => script.id),
    );
    // The wanted stub goes in before the other comes out: a frame that starts in between gets both (each only asks
    // for the bridge, which a document gets once), never neither, which would leave its tools unseen for good.
    if (!registered.has(wanted.id)) {
      await registry.registerContentScripts([
        {
          ...wanted,
          matches: ['<all_urls>'],
          allFrames: true,
          // about:blank and srcdoc frames, as the manifest's match_about_blank does.
          matchOriginAsFallback: true,
          runAt: 'document_start',
          persistAcrossSessions: true,
        },
      ]);
    }
    if (registered.has(unwanted.id)) await registry.unregisterContentScripts({ ids: [unwanted.id] });
  };
  return (native) => {
    const next = queue.then(() => sync(native));
    queue = next.catch(() => undefined);
    return next;
  };
}
