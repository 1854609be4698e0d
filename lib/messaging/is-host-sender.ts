/** What the browser attests about a runtime message's or Port's sender (runtime.MessageSender fits). */
export interface AttestedSender {
  id?: string;
  url?: string;
  /** Chromium: the origin of the sending document (a content script's is its page's). */
  origin?: string;
  /** Firefox: 'content_child' for content scripts, 'addon_child' for extension pages. */
  envType?: string;
}

/**
 * Whether a runtime message or Port comes from one of the extension's own pages (the offscreen agent host, the
 * side panel, the options page, the service worker), the only senders allowed to ask for tool snapshots, run
 * calls, drive the agent host or read settings through it. Content scripts share the extension id but run on web
 * pages: their sender URL and origin are the page's, so they never pass. `sender.tab` proves nothing either way:
 * the panel may be open in a tab (sidepanel.html?tab=N).
 */
export function isHostSender(sender: AttestedSender | undefined, extensionId: string, extensionOrigin: string): boolean {
  if (!sender || sender.id !== extensionId || typeof sender.url !== 'string') return false;
  const origin = extensionOrigin.replace(/\/$/, '');
  if (sender.envType !== undefined && sender.envType !== 'addon_child') return false;
  if (sender.origin !== undefined && sender.origin !== origin) return false;
  return sender.url === origin || sender.url.startsWith(`${origin}/`);
}
