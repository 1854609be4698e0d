/**
 * What the background does on the tabs' events: a watched tab's new page gets the bridge once loaded
 * (create-tool-router.ts, tabNavigating and tabLoaded), and a closed tab is forgotten, its conversation with it
 * (forget-closed-tab.ts: the agent host is told if it runs, else the background deletes the record itself).
 */
import type { TabClosedMessage } from '../messaging/host-channel';
import type { StorageArea } from '../messaging/storage-area';
import { browserSessionId, createConversationStore } from '../storage/conversations';
import type { ToolRouter } from './create-tool-router';
import { forgetClosedTab } from './forget-closed-tab';

/** tabs.onUpdated and tabs.onRemoved (the part used). */
interface TabEvents {
  onUpdated: { addListener(listener: (tabId: number, change: { status?: string; url?: string }) => void): void };
  onRemoved: { addListener(listener: (tabId: number, removeInfo: { isWindowClosing?: boolean }) => void): void };
}

interface TabEventsDeps {
  toolRouter: Pick<ToolRouter, 'tabNavigating' | 'tabLoaded' | 'forgetTab'>;
  /** Tells the agent host a tab closed (Chrome: runtime.sendMessage; Firefox: the host in this page, directly). */
  tellHost(message: TabClosedMessage): Promise<unknown>;
  /** Where the conversations are, for when no host runs to forget the tab. */
  storageAreas: { local: StorageArea; session: StorageArea };
}

/** Adds the tabs' listeners. */
export function setUpTabEvents(tabs: TabEvents, deps: TabEventsDeps): void {
  const { local, session } = deps.storageAreas;
  const conversations = () => browserSessionId(session).then((id) => createConversationStore(local, { session: id }));
  tabs.onUpdated.addListener((tabId, change) => {
    if (change.status === 'loading' && change.url !== undefined) void deps.toolRouter.tabNavigating(tabId);
    if (change.status === 'complete') void deps.toolRouter.tabLoaded(tabId);
  });
  tabs.onRemoved.addListener((tabId, removeInfo) => {
    void deps.toolRouter.forgetTab(tabId);
    void forgetClosedTab(tabId, removeInfo, { tellHost: deps.tellHost, store: conversations });
  });
}
