import { describe, expect, it, vi } from 'vitest';
import { createDocumentPorts } from './create-document-ports';

function setup() {
  const ports: { tabId: number; documentId?: string; close: () => void }[] = [];
  const left = vi.fn();
  const connect = vi.fn((tabId: number, documentId: string | undefined) => {
    const listeners: (() => void)[] = [];
    ports.push({
      tabId,
      ...(documentId ? { documentId } : {}),
      close: () => {
        for (const l of listeners) l();
      },
    });
    return { onDisconnect: { addListener: (l: () => void) => listeners.push(l) } };
  });
  return { documents: createDocumentPorts({ connect, left }), connect, left, ports };
}

const top = (tabId: number, documentId?: string) => ({
  tabId,
  frameId: 0,
  origin: 'https://shop.example',
  url: 'https://shop.example/',
  ...(documentId ? { documentId } : {}),
});

describe('createDocumentPorts', () => {
  it('holds one Port per top document, and says which document left when it closes', () => {
    const { documents, connect, left, ports } = setup();
    documents.seen(top(7, 'doc-1'));
    documents.seen(top(7, 'doc-1'));
    expect(connect).toHaveBeenCalledTimes(1);
    expect(connect).toHaveBeenCalledWith(7, 'doc-1');
    ports[0].close();
    expect(left).toHaveBeenCalledWith(7, 'doc-1');
    // Its next report (the page back from the back/forward cache, a restarted service worker) opens it again.
    documents.seen(top(7, 'doc-1'));
    expect(connect).toHaveBeenCalledTimes(2);
  });

  it('opens a new document’s Port, and the old one closing later does not forget the new one', () => {
    const { documents, connect, left, ports } = setup();
    documents.seen(top(7, 'doc-1'));
    documents.seen(top(7, 'doc-2'));
    expect(connect).toHaveBeenCalledTimes(2);
    ports[0].close();
    expect(left).toHaveBeenCalledWith(7, 'doc-1');
    documents.seen(top(7, 'doc-2'));
    expect(connect).toHaveBeenCalledTimes(2);
  });

  it('holds none to a frame below the top', () => {
    const { documents, connect } = setup();
    documents.seen({ ...top(7, 'doc-1'), frameId: 3 });
    expect(connect).not.toHaveBeenCalled();
  });
});
