/**
 * The background → agent host notice that a tab closed (Chrome's offscreen host hears it as a runtime message; on
 * Firefox the background page is the host and calls it directly). Declared once for both ends.
 */
export interface TabClosedMessage {
  type: 'host:tab-closed';
  tabId: number;
  /** The tab closed with its window (tabs.onRemoved's isWindowClosing): keep its conversation for restore. */
  keepForRestore: boolean;
}

/** Whether a runtime message is a well-formed tab-closed notice. Who sent it is the receiver's check. */
export function isTabClosedMessage(message: unknown): message is TabClosedMessage {
  const m = message as TabClosedMessage;
  return (
    typeof m === 'object' && m !== null && m.type === 'host:tab-closed' && Number.isInteger(m.tabId) && typeof m.keepForRestore === 'boolean'
  );
}
