/**
 * Background (and side panel) → agent host, on runtime.sendMessage: Chrome's offscreen host hears these; on Firefox
 * the background page is the host and calls it directly. Declared once for both ends (lib/messaging/channel.ts).
 * Who sent a message is the receiver's check (only the extension's own contexts are heard).
 */
import type { MessageOf } from './channel';

/** What the host says when pinged. */
interface HostPing {
  host: 'offscreen';
  crossOriginIsolated: boolean;
}

export interface HostChannel {
  /**
   * A side panel that lost its host asks before reconnecting; the background, hearing it, brings the offscreen
   * document back if it is gone.
   */
  'host/ping': { request: object; answer: HostPing };
  /** A tab closed: the host drops its session and the stored conversation (unless it is kept for restore). */
  'host/tab-closed': {
    request: {
      tabId: number;
      /** The tab closed with its window (tabs.onRemoved's isWindowClosing): keep its conversation for restore. */
      keepForRestore: boolean;
    };
    answer: boolean;
  };
}

/** The tab-closed notice. */
export type TabClosedMessage = MessageOf<HostChannel, 'host/tab-closed'>;

/** Whether a runtime message is a well-formed tab-closed notice. Who sent it is the receiver's check. */
export function isTabClosedMessage(message: unknown): message is TabClosedMessage {
  const m = message as TabClosedMessage;
  return (
    typeof m === 'object' &&
    m !== null &&
    m.type === 'host/tab-closed' &&
    Number.isInteger(m.tabId) &&
    typeof m.keepForRestore === 'boolean'
  );
}
