import { ensureOffscreenDocument } from '@/lib/background/ensure-offscreen-document';
import { isFirefox } from '@/lib/platform';

export default defineBackground(() => {
  if (isFirefox()) {
    // Firefox: the toolbar button toggles the sidebar.
    browser.action.onClicked.addListener(() => (browser as any).sidebarAction.toggle());
  } else {
    void browser.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
    const offscreenApi = {
      hasDocument: async () => (await browser.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT' as any] })).length > 0,
      createDocument: (params: { url: string; reasons: string[]; justification: string }) =>
        browser.offscreen.createDocument(params as any),
    };
    const ensureHost = () => ensureOffscreenDocument(offscreenApi, browser.runtime.getURL('/offscreen.html'));
    browser.runtime.onStartup.addListener(() => void ensureHost());
    browser.runtime.onInstalled.addListener(() => void ensureHost());
    void ensureHost();
  }
});
