/**
 * What the agent host asks the background by runtime message (runtime.onMessage, from the extension's own pages
 * only: isHostSender): on Chrome, whose offscreen host has no chrome.storage nor connectNative, its storage
 * (`storage/…`) and native link (`native-link/…`); and the host's report of whether the browser has native WebMCP,
 * which a document can tell and the service worker cannot. The router's questions ride the router's line
 * (set-up-router-lines.ts).
 */
import { serveAgentStorage } from '../messaging/agent-storage-proxy';
import type { RouterChannel } from '../messaging/router-messages';
import { isMessage } from '../messaging/channel';
import { isHostSender } from '../messaging/is-host-sender';
import type { BridgeBrowser } from '../messaging/mcp-bridge-messages';
import type { StorageArea } from '../messaging/storage-area';
import { serveNativeLink } from './create-native-link';
import type { RuntimeMessageEvent } from './runtime-message-event';

interface HostRequestsDeps {
  onMessage: RuntimeMessageEvent;
  /** The extension's id and origin (runtime.id, runtime.getURL('/')): who counts as the host. */
  extension: { id: string; origin: string };
  /** The areas served to Chrome's offscreen host. */
  storageAreas: { local: StorageArea; session: StorageArea };
  /** The native link served to Chrome's offscreen host; Firefox's host calls it directly (none given). */
  nativeLink?: BridgeBrowser;
  /** The host reported native WebMCP (set-up-stub-sync.ts). */
  nativeReported(native: boolean): Promise<void>;
}

/** Listens for the agent host's requests; anything from another sender is left to other listeners. */
export function setUpHostRequests(deps: HostRequestsDeps): void {
  deps.onMessage.addListener((message, sender, sendResponse) => {
    if (!isHostSender(sender, deps.extension.id, deps.extension.origin)) return false;
    if (isMessage<RouterChannel, 'router/native-webmcp'>(message, 'router/native-webmcp')) {
      if (typeof message.native === 'boolean') void deps.nativeReported(message.native);
      return false;
    }
    const answer =
      serveAgentStorage(message, deps.storageAreas) ?? (deps.nativeLink ? serveNativeLink(deps.nativeLink, message) : undefined);
    if (!answer) return false;
    void answer.then(sendResponse);
    return true;
  });
}
