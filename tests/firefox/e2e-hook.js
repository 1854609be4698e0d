/**
 * Test-only background script. tests/firefox/launch-firefox.ts adds it to a temporary copy of the Firefox
 * build (never to the build itself, so no shipped code carries it).
 *
 * Why: WebDriver BiDi refuses to navigate to moz-extension:// URLs, so the extension opens its own page
 * instead. A loopback page whose URL has `webmcp-e2e-open=<page>.html` in its query makes the background
 * open `<page>.html?tab=<that tab's id>` in a new window, once per tab; the test then drives that page, which
 * has the extension's APIs (runtime messaging, tabs.sendMessage) like the side panel itself.
 *
 * A window, not a tab: the sidebar sits beside a visible page, and a tab opened in the page's window would hide the
 * page. Firefox throttles a hidden tab's timers to one a second, which made each page tool call take about 5 s
 * (the smoke ran 258 s with tabs, 59 s with windows).
 */
const opened = new Set();

browser.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (change.status !== 'complete' || opened.has(tabId) || !tab.url) return;
  const url = new URL(tab.url);
  const page = url.searchParams.get('webmcp-e2e-open');
  if (!page || !/^[a-z-]+\.html$/.test(page)) return;
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') return;
  opened.add(tabId);
  void browser.windows.create({ url: browser.runtime.getURL(`/${page}?tab=${tabId}`) });
});

/**
 * The attacker's seat for trust checks: runs one of these functions as a content script of a tab (the world a
 * compromised renderer controls), and answers with what it saw. Only extension pages of this add-on may ask.
 */
const CONTENT_SCRIPT_ATTACKS = {
  // Opens a Port with the panel's name, binds the tab, answers any open question with allow-once. Settles on the
  // first snapshot with a question, or when the host hangs up.
  panelPort: (tabId) =>
    new Promise((resolve) => {
      const heard = [];
      const port = browser.runtime.connect({ name: 'webmcp-agent-panel' });
      port.onMessage.addListener((m) => {
        heard.push(m.type);
        const open = m.type === 'tab' ? m.snapshot.confirmations[0] : undefined;
        if (m.type === 'tab' && !open) return resolve({ heard, snapshot: true });
        if (!open) return;
        port.postMessage({ type: 'confirm', tabId, callId: open.callId, confirmationId: open.id, answer: 'allow-once' });
        resolve({ heard, answered: true });
      });
      port.onDisconnect.addListener(() => resolve({ heard, disconnected: true }));
      port.postMessage({ type: 'bind', tabId });
    }),
  // Asks the agent host for the cloud model list, which it fetches with the person's key.
  optionsRequest: () =>
    browser.runtime.sendMessage({ type: 'options/list-cloud-models' }).then(
      (answer) => ({ answer: answer ?? null }),
      (error) => ({ error: String(error?.message ?? error) }),
    ),
};

browser.runtime.onMessage.addListener((message, sender) => {
  if (message?.type !== 'e2e:content-script-attack' || !sender.url?.startsWith(browser.runtime.getURL('/'))) return;
  const attack = CONTENT_SCRIPT_ATTACKS[message.attack];
  if (!attack) return;
  return browser.scripting.executeScript({ target: { tabId: message.tabId }, func: attack, args: [message.tabId] }).then(
    (results) => results[0]?.result,
    (error) => ({ error: `executeScript: ${String(error?.message ?? error)}` }),
  );
});

/**
 * The router, asked as the agent host asks it (router/get-tools, router/call-tool: lib/messaging/router-messages.ts
 * RouterLine) through its line's handlers, for the smoke's extension pages: Firefox's host is this page and calls the
 * router directly, so no line carries these here. `testToolRouter` is the build's own test hook (not in store builds).
 */
browser.runtime.onMessage.addListener((message, sender) => {
  if (message?.type !== 'e2e:router' || !sender.url?.startsWith(browser.runtime.getURL('/'))) return;
  const handler = globalThis.testToolRouter?.hostHandlers()[message.ask];
  if (!handler) return;
  return Promise.resolve(handler(message.request, { signal: new AbortController().signal, update: () => undefined }));
});
