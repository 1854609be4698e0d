import type { TabClosedMessage } from '../messaging/host-channel';
import type { ConversationStore } from '../storage/conversations';

interface ForgetClosedTabDeps {
  /**
   * Tells a running agent host (runtime.sendMessage on Chrome), which stops the tab's run, drops it from memory and
   * deletes the record itself; resolves to true when the host did. Rejects or resolves otherwise when no host runs.
   */
  tellHost: (message: TabClosedMessage) => Promise<unknown>;
  /** The conversation store over storage.local, for when no host is running to do it. */
  store: () => Promise<Pick<ConversationStore, 'forgetTab'>>;
}

/**
 * The background's part when a tab closes (tabs.onRemoved): the tab's conversation goes, unless the tab closed with
 * its window, in which case it is kept for the browser's restore. Chrome's agent host may not be running (the
 * offscreen document is not always there): then the background deletes the record directly. When it is running,
 * the host does it, so a save it still has in flight cannot write the record back afterwards.
 */
export async function forgetClosedTab(tabId: number, removeInfo: { isWindowClosing?: boolean }, deps: ForgetClosedTabDeps): Promise<void> {
  const message: TabClosedMessage = { type: 'host/tab-closed', tabId, keepForRestore: removeInfo.isWindowClosing === true };
  const done = await deps.tellHost(message).catch(() => false);
  if (done === true) return;
  await (await deps.store()).forgetTab(tabId, { keepForRestore: message.keepForRestore });
}
