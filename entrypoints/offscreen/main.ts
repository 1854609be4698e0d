browser.runtime.onMessage.addListener((message: any, _sender, sendResponse) => {
  if (message?.type === 'host-ping') sendResponse({ host: 'offscreen', crossOriginIsolated: globalThis.crossOriginIsolated });
});
