function pingMainWorld(timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      window.removeEventListener('webmcp-agent:pong', onPong);
      resolve(ok);
    };
    const onPong = () => done(true);
    window.addEventListener('webmcp-agent:pong', onPong);
    window.dispatchEvent(new Event('webmcp-agent:ping'));
    setTimeout(() => done(false), timeoutMs);
  });
}

export default defineContentScript({
  matches: ['<all_urls>'],
  allFrames: true,
  matchAboutBlank: true,
  runAt: 'document_start',
  main() {
    browser.runtime.onMessage.addListener((message: any, _sender, sendResponse) => {
      if (message?.type !== 'ping') return;
      void pingMainWorld().then((mainWorld) => sendResponse({ world: 'isolated', url: location.href, mainWorld }));
      return true;
    });
    // Announce this frame so the background learns the tab's frames without the webNavigation permission.
    void browser.runtime.sendMessage({ type: 'frame-ready', url: location.href }).catch(() => {});
  },
});
