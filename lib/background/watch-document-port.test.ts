import { describe, expect, it, vi } from 'vitest';
import { DOCUMENT_PORT_NAME } from '../messaging/bridge-messages';
import { watchDocumentPort } from './watch-document-port';

function port(name: string, sender?: Record<string, unknown>) {
  const listeners: (() => void)[] = [];
  return {
    name,
    sender,
    onDisconnect: { addListener: (l: () => void) => listeners.push(l) },
    disconnect: vi.fn(),
    close: () => {
      for (const l of listeners) l();
    },
  };
}

describe('watchDocumentPort', () => {
  it('tells the router the attested tab and document when a top document’s Port closes', () => {
    const left = vi.fn();
    const p = port(DOCUMENT_PORT_NAME, { tab: { id: 7 }, frameId: 0, documentId: 'doc-1', url: 'https://shop.example/' });
    expect(watchDocumentPort(p, left)).toBe(true);
    expect(left).not.toHaveBeenCalled();
    p.close();
    expect(left).toHaveBeenCalledWith(7, 'doc-1');
  });

  it('leaves a Port of another name alone', () => {
    const p = port('webmcp-agent-panel', { tab: { id: 7 }, frameId: 0, url: 'https://shop.example/' });
    expect(watchDocumentPort(p, vi.fn())).toBe(false);
    expect(p.disconnect).not.toHaveBeenCalled();
  });

  it('cuts off a Port of its name from a frame below the top or from no tab: only a top document speaks for its tab', () => {
    const left = vi.fn();
    const child = port(DOCUMENT_PORT_NAME, { tab: { id: 7 }, frameId: 3, url: 'https://ads.example/' });
    const page = port(DOCUMENT_PORT_NAME, { url: 'chrome-extension://id/sidepanel.html' });
    expect(watchDocumentPort(child, left)).toBe(false);
    expect(watchDocumentPort(page, left)).toBe(false);
    expect(child.disconnect).toHaveBeenCalled();
    expect(page.disconnect).toHaveBeenCalled();
    child.close();
    expect(left).not.toHaveBeenCalled();
  });
});
