import { describe, expect, it, vi } from 'vitest';
import type { SharingState } from '../messaging/mcp-bridge-messages';
import { createSharingViews, type SharingPort } from './create-sharing-views';

const EXTENSION = { id: 'ext-id', origin: 'chrome-extension://ext-id/' };
const PANEL = { id: 'ext-id', url: 'chrome-extension://ext-id/sidepanel.html' };

function port(sender: SharingPort['sender'], name = 'webmcp-agent-sharing') {
  const received: unknown[] = [];
  const listeners: ((m: unknown) => void)[] = [];
  const gone: (() => void)[] = [];
  const p = {
    name,
    sender,
    received,
    disconnected: false,
    postMessage: (m: unknown) => void received.push(m),
    onMessage: { addListener: (l: (m: unknown) => void) => void listeners.push(l) },
    onDisconnect: { addListener: (l: () => void) => void gone.push(l) },
    disconnect: () => {
      p.disconnected = true;
    },
    send: (m: unknown) => {
      for (const l of listeners) l(m);
    },
    close: () => {
      for (const l of gone) l();
    },
  };
  return p;
}

const stateOf = (tabId?: number) => ({ enabled: true, tab: tabId }) as unknown as SharingState;

describe('createSharingViews', () => {
  it('cuts off a sharing Port that is not from the extension’s own pages before it can ask anything', async () => {
    const intent = vi.fn();
    const views = createSharingViews(async (tabId) => stateOf(tabId));
    const page = port({ id: 'ext-id', url: 'https://evil.example/', tab: { id: 3 } } as SharingPort['sender']);
    views.accept(page, EXTENSION, { 'sharing/set-enabled': intent });
    page.send({ type: 'sharing/set-enabled', enabled: true });
    await views.broadcast();
    expect(page.disconnected).toBe(true);
    expect(intent).not.toHaveBeenCalled();
    expect(page.received).toEqual([]);
  });

  it('leaves other Ports alone, and hands a panel’s intents to their handlers', async () => {
    const intent = vi.fn();
    const views = createSharingViews(async (tabId) => stateOf(tabId));
    const other = port(PANEL, 'webmcp-agent');
    views.accept(other, EXTENSION, {});
    expect(other.disconnected).toBe(false);
    const panel = port(PANEL);
    views.accept(panel, EXTENSION, { 'sharing/set-enabled': intent });
    panel.send({ type: 'sharing/set-enabled', enabled: true });
    await vi.waitFor(() => expect(intent).toHaveBeenCalledWith({ type: 'sharing/set-enabled', enabled: true }, panel));
  });

  it('sends each view the state of the tab it watches now, and nothing once it is gone', async () => {
    const views = createSharingViews(async (tabId) => stateOf(tabId));
    const panel = port(PANEL);
    views.accept(panel, EXTENSION, {});
    panel.send({ type: 'sharing/watch', tabId: 4 });
    await vi.waitFor(() => expect(panel.received).toEqual([{ type: 'sharing/state', state: stateOf(4) }]));
    expect(views.watched(4)).toBe(true);
    await views.broadcast();
    expect(panel.received).toHaveLength(2);
    panel.close();
    expect(views.watched(4)).toBe(false);
    await views.broadcast();
    expect(panel.received).toHaveLength(2);
  });
});
