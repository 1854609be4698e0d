import { describe, expect, it, vi } from 'vitest';
import { DOCUMENT_PORT_NAME } from '../messaging/bridge-messages';
import { holdDocumentPort } from './hold-document-port';

function runtime() {
  const ports: { close: () => void }[] = [];
  const connect = vi.fn(() => {
    const listeners: (() => void)[] = [];
    ports.push({
      close: () => {
        for (const l of listeners) l();
      },
    });
    return { onDisconnect: { addListener: (l: () => void) => listeners.push(l) } };
  });
  return { connect, ports };
}

describe('holdDocumentPort', () => {
  it('opens one Port from the top document, and opens it again on the next hold once it closed', () => {
    const r = runtime();
    const hold = holdDocumentPort(r, true);
    hold();
    hold();
    expect(r.connect).toHaveBeenCalledTimes(1);
    expect(r.connect).toHaveBeenCalledWith({ name: DOCUMENT_PORT_NAME });
    r.ports[0].close();
    expect(r.connect).toHaveBeenCalledTimes(1);
    hold();
    expect(r.connect).toHaveBeenCalledTimes(2);
  });

  it('opens none from a frame below the top', () => {
    const r = runtime();
    holdDocumentPort(r, false)();
    expect(r.connect).not.toHaveBeenCalled();
  });
});
