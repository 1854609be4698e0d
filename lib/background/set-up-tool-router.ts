/**
 * The background's tool router (create-tool-router.ts) over the browser: storage.session for its snapshots, the
 * frames by tabs.sendMessage, the badge, the agent host by runtime.sendMessage, the bridge's loading by
 * scripting.executeScript; and the Port to each top document whose bridge runs (create-document-ports.ts), whose
 * closing is the only news of a crash.
 */
import { DOCUMENT_PORT_NAME } from '../messaging/router-messages';
import { createDocumentPorts } from './create-document-ports';
import { createToolRouter, type ToolRouter } from './create-tool-router';
import type { ToolRouterPorts } from './tool-router-ports';
import { isCrashedTab } from './is-crashed-tab';
import { type ConnectorInjection, createConnectorLoader, createFrameFinder, type FrameProbe } from './load-connector';

/** A runtime Port the background holds (the part used). */
interface HeldPort {
  onDisconnect: { addListener(listener: () => void): void };
}

/** The slice of the browser the router and the document Ports use. */
interface ToolRouterBrowser {
  storage: {
    session: {
      get(keys: string[]): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
      remove(keys: string[]): Promise<void>;
    };
  };
  tabs: {
    sendMessage(tabId: number, message: unknown, options: { frameId?: number; documentId?: string }): Promise<unknown>;
    get(tabId: number): Promise<{ status?: string; discarded?: boolean }>;
    connect(tabId: number, options: { name: string; frameId?: number; documentId?: string }): HeldPort;
  };
  action: { setBadgeText(details: { tabId: number; text: string }): Promise<void> };
  /** The browser's typings cannot name load-connector.ts's injections (their `args` typed by `func`): taken as never. */
  scripting: { executeScript(injection: never): Promise<unknown> };
}

/** The router, and the document Ports that frames' reports open (setUpFrameMessages). */
interface BackgroundToolRouter {
  toolRouter: ToolRouter;
  documentPorts: ReturnType<typeof createDocumentPorts>;
}

/** Creates the router and the document Ports. `firefox`: the bridge targets frames by id (no document ids). */
export function setUpToolRouter(
  browser: ToolRouterBrowser,
  options: { firefox: boolean; randomKey: () => string; notifyHost: ToolRouterPorts['notifyHost'] },
): BackgroundToolRouter {
  const toolRouter = createToolRouter({
    store: {
      get: (keys) => browser.storage.session.get([...keys]),
      set: (items) => browser.storage.session.set(items),
      remove: (keys) => browser.storage.session.remove([...keys]),
    },
    // With a documentId (Chrome) the message reaches that document or none, never the one that replaced it.
    sendToFrame: (tabId, frameId, message, documentId) =>
      browser.tabs.sendMessage(tabId, message, documentId ? { documentId } : { frameId }),
    setBadge: (tabId, text) => void browser.action.setBadgeText({ tabId, text }).catch(() => {}),
    notifyHost: options.notifyHost,
    // The two halves of the bridge, and the key that proves the page channel's handshake to both.
    loadConnector: createConnectorLoader({
      executeScript: (injection: ConnectorInjection) => browser.scripting.executeScript(injection as never),
      firefox: options.firefox,
      randomKey: options.randomKey,
    }),
    findFrames: createFrameFinder((injection: FrameProbe) => browser.scripting.executeScript(injection as never)),
    tabCrashed: (tabId) => browser.tabs.get(tabId).then(isCrashedTab, () => false),
  });
  const documentPorts = createDocumentPorts({
    connect: (tabId, documentId) => {
      try {
        return browser.tabs.connect(tabId, { name: DOCUMENT_PORT_NAME, ...(documentId ? { documentId } : { frameId: 0 }) });
      } catch {
        return undefined;
      }
    },
    left: (tabId, documentId) => void toolRouter.topDocumentLeft(tabId, documentId),
  });
  return { toolRouter, documentPorts };
}
