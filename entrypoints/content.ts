export default defineContentScript({
  matches: ['<all_urls>'],
  allFrames: true,
  matchAboutBlank: true,
  runAt: 'document_start',
  main() {
    browser.runtime.onMessage.addListener((message: any, _sender, sendResponse) => {
      if (message?.type === 'ping') {
        sendResponse({ world: 'isolated', url: location.href, mainWorld: document.documentElement.hasAttribute('data-webmcp-agent') });
      }
    });
  },
});
