/**
 * Whether a runtime message comes from one of the extension's own pages (the offscreen agent host, the side
 * panel), the only senders allowed to ask for tool snapshots or run calls. Content scripts share the extension
 * id but run on web pages: their sender URL is the page's, so they never pass.
 */
export function isHostSender(sender: { id?: string; url?: string }, extensionId: string, extensionOrigin: string): boolean {
  if (sender.id !== extensionId || typeof sender.url !== 'string') return false;
  const origin = extensionOrigin.replace(/\/$/, '');
  return sender.url === origin || sender.url.startsWith(`${origin}/`);
}
