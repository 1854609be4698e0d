/**
 * Loads the rest of the bridge into a frame (docs/architecture.md, "The lazy connector"): frame-connector.js into the isolated
 * world, page-connector.js into the page's, and the key that proves the page channel's handshake into both
 * (lib/webmcp/page-channel.ts). The key travels only through scripting.executeScript: the isolated world gets it
 * first, in a global the page cannot see; the page's world gets it last, once both scripts ran there, as the
 * argument of a function called on page-connector.js. So the isolated side is listening, and holds the key, before
 * the page's world is shown anything to prove; a page that only listens on the window never sees the key.
 */
import { ISOLATED_KEYS_GLOBAL, PAGE_CONNECTOR_NAME } from '../webmcp/connector-keys';

/** Where to load: a whole tab, one document (Chrome), or one frame (Firefox, which has no document ids). */
type BridgeTarget = { tabId: number; allFrames: true } | { tabId: number; documentIds: string[] } | { tabId: number; frameIds: number[] };

/** One scripting.executeScript injection, as this module makes them. */
export type ConnectorInjection = { target: BridgeTarget; injectImmediately: true; world?: 'MAIN' } & (
  | { files: string[] }
  | { func: (name: string, key: string) => void; args: [string, string] }
);

interface ConnectorLoaderPorts {
  executeScript(injection: ConnectorInjection): Promise<unknown>;
  /** Firefox: target frames by id, as it has no document ids. */
  firefox: boolean;
  /** A fresh unguessable key (crypto.randomUUID). */
  randomKey(): string;
}

/** Run in the isolated world: the key joins those the bridge there accepts (entrypoints/frame-connector.ts). */
function giveIsolatedKey(name: string, key: string): void {
  const global = globalThis as unknown as Record<string, string[] | undefined>;
  const keys = global[name] ?? [];
  global[name] = keys;
  keys.push(key);
}

/** Run in the page's world: page-connector.js announces its channel with the key (lib/page-world/start-page-connector.ts). */
function giveMainKey(name: string, key: string): void {
  const prove = (window as unknown as Record<symbol, unknown>)[Symbol.for(name)];
  if (typeof prove === 'function') prove(key);
}

/** A frame to load into: its document where the browser has document ids (Chrome). */
export interface BridgeFrame {
  frameId: number;
  documentId?: string;
}

/**
 * The router's loadConnector (lib/background/create-tool-router.ts): into one document or several, or every frame of
 * the tab without `frames`. Several get one injection of each script for all of them; a document gone since it was
 * named fails that injection whole, so then each is loaded on its own and the others still get their bridge.
 * Loading twice does nothing but hand both worlds another key.
 */
export function createConnectorLoader(
  ports: ConnectorLoaderPorts,
): (tabId: number, frames?: BridgeFrame | readonly BridgeFrame[]) => Promise<void> {
  const loadInto = async (target: BridgeTarget) => {
    const key = ports.randomKey();
    const loaded = await Promise.allSettled([
      ports.executeScript({ target, func: giveIsolatedKey, args: [ISOLATED_KEYS_GLOBAL, key], injectImmediately: true }),
      ports.executeScript({ target, files: ['/frame-connector.js'], injectImmediately: true }),
      ports.executeScript({ target, world: 'MAIN', files: ['/page-connector.js'], injectImmediately: true }),
    ]);
    // Sent even when a frame of the tab refused a script: the frames that took both need their key.
    await ports.executeScript({ target, world: 'MAIN', func: giveMainKey, args: [PAGE_CONNECTOR_NAME, key], injectImmediately: true });
    for (const result of loaded) if (result.status === 'rejected') throw result.reason;
  };
  return async (tabId, frames) => {
    const list = frames === undefined ? undefined : 'frameId' in frames ? [frames] : frames;
    if (!list || list.length === 1) return loadInto(bridgeTarget(tabId, list, ports.firefox));
    const whole = await loadInto(bridgeTarget(tabId, list, ports.firefox)).then(
      () => true,
      () => false,
    );
    if (whole) return;
    const each = await Promise.allSettled(list.map((frame) => loadInto(bridgeTarget(tabId, [frame], ports.firefox))));
    for (const result of each) if (result.status === 'rejected') throw result.reason;
  };
}

/**
 * Chrome targets the documents (never one that replaced them); Firefox has no document ids, so it targets the
 * frames.
 */
function bridgeTarget(tabId: number, list: readonly BridgeFrame[] | undefined, firefox: boolean): BridgeTarget {
  if (!list) return { tabId, allFrames: true };
  const documentIds = list.flatMap((frame) => (frame.documentId ? [frame.documentId] : []));
  return !firefox && documentIds.length === list.length ? { tabId, documentIds } : { tabId, frameIds: list.map((frame) => frame.frameId) };
}

/** A frame of a tab, as scripting.executeScript reaches it. */
export interface FoundFrame {
  frameId: number;
  /** Chrome's; Firefox has none. */
  documentId?: string;
  /** Whether frame-connector.js runs in the frame's isolated world already. */
  hasConnector: boolean;
  /**
   * The frame's initial about:blank while it loads its `src` (lib/webmcp/after-frame-document.ts): about to go, and
   * the document that comes gets the extension's scripts of its own.
   */
  pending?: boolean;
}

/**
 * Run in each frame's isolated world: whether frame-connector.js runs there for the frame's document (it marks the
 * world's global with the document it serves, lib/isolated-world/start-frame-connector.ts; a window kept from the
 * frame's initial about:blank keeps the about:blank's mark), and else whether the document is an initial about:blank
 * whose frame still loads its `src` or `srcdoc`. That rule is after-frame-document.ts's (pendingFrameElement), spelled
 * again here because executeScript sends a function's source alone.
 */
function bridgeRuns(): 'runs' | 'pending' | 'none' {
  const { webmcpAgentBridge, document } = globalThis as { webmcpAgentBridge?: unknown; document?: Document };
  if (webmcpAgentBridge !== undefined && webmcpAgentBridge === document) return 'runs';
  try {
    const element = (globalThis as { frameElement?: Element | null }).frameElement;
    if (document?.URL !== 'about:blank' || !element || (element.localName !== 'iframe' && element.localName !== 'frame')) return 'none';
    if (element.localName === 'iframe' && element.hasAttribute('srcdoc')) return 'pending';
    const src = element.getAttribute('src')?.trim();
    if (!src) return 'none';
    const protocol = new URL(src, element.ownerDocument.baseURI).protocol;
    return protocol === 'about:' || protocol === 'javascript:' ? 'none' : 'pending';
  } catch {
    return 'none';
  }
}

/**
 * The router's findFrames: every frame of the tab the extension reaches, and whether it has the bridge, from one
 * small injection (the delegation check loads the bridge only where it is missing).
 */
export function createFrameFinder(executeScript: (injection: FrameProbe) => Promise<unknown>): (tabId: number) => Promise<FoundFrame[]> {
  return async (tabId) => {
    const results = await executeScript({ target: { tabId, allFrames: true }, func: bridgeRuns, injectImmediately: true });
    if (!Array.isArray(results)) return [];
    return results.flatMap((entry: { frameId?: unknown; documentId?: unknown; result?: unknown }) =>
      typeof entry?.frameId === 'number'
        ? [
            {
              frameId: entry.frameId,
              ...(typeof entry.documentId === 'string' ? { documentId: entry.documentId } : {}),
              hasConnector: entry.result === 'runs',
              ...(entry.result === 'pending' ? { pending: true } : {}),
            },
          ]
        : [],
    );
  };
}

/** The one injection createFrameFinder makes. */
export type FrameProbe = { target: { tabId: number; allFrames: true }; func: () => 'runs' | 'pending' | 'none'; injectImmediately: true };
