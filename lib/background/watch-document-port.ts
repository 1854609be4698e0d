/**
 * The background's end of the Port a watched tab's top document holds open (DOCUMENT_PORT_NAME,
 * lib/isolated-world/hold-document-port.ts): when it closes, the router checks whether the tab crashed
 * (create-tool-router.ts, topDocumentLeft). The tab and document are the browser's attestation of who opened it;
 * a Port from a frame below the top, or from no tab, is cut off.
 */
import { DOCUMENT_PORT_NAME } from '../messaging/bridge-messages';
import { attestFrameSender } from './attest-frame-sender';

/** The part of a runtime Port read here. */
interface DocumentPort {
  name: string;
  sender?: Parameters<typeof attestFrameSender>[0];
  onDisconnect: { addListener(listener: () => void): void };
  disconnect(): void;
}

/**
 * Takes a Port from runtime.onConnect. Returns false for a Port of another name (another listener's), and for one
 * of this name that is not a tab's top frame (disconnected).
 */
export function watchDocumentPort(port: DocumentPort, topDocumentLeft: (tabId: number, documentId?: string) => void): boolean {
  if (port.name !== DOCUMENT_PORT_NAME) return false;
  const frame = port.sender ? attestFrameSender(port.sender) : undefined;
  if (frame?.frameId !== 0) {
    try {
      port.disconnect();
    } catch {
      // Already gone.
    }
    return false;
  }
  const { tabId, documentId } = frame;
  port.onDisconnect.addListener(() => topDocumentLeft(tabId, documentId));
  return true;
}
