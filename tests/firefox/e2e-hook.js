/**
 * Test-only background script. tests/firefox/launch-firefox.ts adds it to a temporary copy of the Firefox
 * build (never to the build itself, so no shipped code carries it).
 *
 * Why: WebDriver BiDi refuses to navigate to moz-extension:// URLs, so the extension opens its own page
 * instead. A loopback page whose URL has `webmcp-e2e-open=<page>.html` in its query makes the background
 * open `<page>.html?tab=<that tab's id>` in a new tab, once per tab; the test then drives that tab, which
 * has the extension's APIs (runtime messaging, tabs.sendMessage) like the side panel itself.
 */
const opened = new Set();

browser.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (change.status !== 'complete' || opened.has(tabId) || !tab.url) return;
  const url = new URL(tab.url);
  const page = url.searchParams.get('webmcp-e2e-open');
  if (!page || !/^[a-z-]+\.html$/.test(page)) return;
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') return;
  opened.add(tabId);
  void browser.tabs.create({ url: browser.runtime.getURL(`/${page}?tab=${tabId}`) });
});
