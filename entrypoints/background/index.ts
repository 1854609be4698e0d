import { setUpBackgroundPageHost } from '@/lib/agent-host-root/set-up-background-page-host';
import { openFirefoxPrivilegedArea } from '@/lib/background/open-firefox-privileged-area';
import { installE2eTestHooks } from '@/lib/background/install-e2e-test-hooks';
import { setUpFrameReports } from '@/lib/background/set-up-frame-reports';
import { setUpHostRequests } from '@/lib/background/set-up-host-requests';
import { setUpNativeLink } from '@/lib/background/set-up-native-link';
import { setUpOffscreenHost } from '@/lib/background/set-up-offscreen-host';
import { setUpRouterLines } from '@/lib/background/set-up-router-lines';
import { setUpStorageAreas } from '@/lib/background/set-up-storage-areas';
import { setUpStubSync } from '@/lib/background/set-up-stub-sync';
import { setUpTabEvents } from '@/lib/background/set-up-tab-events';
import { setUpToolbarButton } from '@/lib/background/set-up-toolbar-button';
import { setUpToolRouter } from '@/lib/background/set-up-tool-router';
import type { EnginePort } from '@/lib/local/engine-messages';

// The background: each concern is set up by its lib/background/set-up-….ts, given the browser. `firefox` is a
// build-time constant, not isFirefox(): it lets the bundler drop the agent host (AI SDK and all) from Chrome's
// service worker, which then parses 10 KB on every wake instead of 900 KB.
export default defineBackground(() => {
  const firefox = import.meta.env.FIREFOX;
  const extension = { id: browser.runtime.id, origin: browser.runtime.getURL('/') };
  // First, before anything is read or written: content scripts get no extension storage.
  const storageAreas = setUpStorageAreas(browser, {
    openPrivileged: firefox
      ? (local) => openFirefoxPrivilegedArea(local, { indexedDB, openChannel: (name) => new BroadcastChannel(name) })
      : undefined,
  });
  // Chrome's agent host is the offscreen document: started now, and on the line the router opens to it.
  const offscreenHost = firefox ? undefined : setUpOffscreenHost(browser);
  const routerLines = offscreenHost
    ? setUpRouterLines(browser, { extension, handlers: () => toolRouter.hostHandlers(), hostDocumentUp: offscreenHost.started })
    : undefined;
  // Page tools: content scripts report, the agent host asks (Chrome: the offscreen host's line; Firefox: this page).
  const { toolRouter, documentPorts } = setUpToolRouter(browser, {
    firefox,
    randomKey: () => crypto.randomUUID(),
    notifyHost: routerLines?.notifyHost,
  });
  const stubs = setUpStubSync(browser, { firefox });
  const nativeLink = setUpNativeLink(browser, { firefox });
  setUpHostRequests({
    onMessage: browser.runtime.onMessage,
    extension,
    storageAreas,
    nativeLink: firefox ? undefined : nativeLink,
    nativeReported: stubs.nativeReported,
  });
  setUpFrameReports({ onMessage: browser.runtime.onMessage, extension, toolRouter, documentPorts });
  const pageHost = firefox
    ? setUpBackgroundPageHost(browser, {
        storage: storageAreas,
        toolRouter,
        nativeLink,
        // (Vite still emits the worker file into Chrome's build, unused there.)
        startWorker: () =>
          new Worker(new URL('../offscreen/engine-worker.ts', import.meta.url), { type: 'module' }) as unknown as EnginePort,
        deviceMemoryGb: (navigator as { deviceMemory?: number }).deviceMemory,
        fetch: globalThis.fetch.bind(globalThis),
      })
    : undefined;
  setUpTabEvents(browser.tabs, {
    toolRouter,
    tellHost: pageHost ? pageHost.tellHost : (message) => browser.runtime.sendMessage(message),
    storageAreas,
  });
  setUpToolbarButton(browser, { firefox });
  if (import.meta.env.MODE !== 'store') {
    installE2eTestHooks(globalThis, {
      pageStubReady: stubs.ready,
      stubsSettled: stubs.settled,
      testToolRouter: toolRouter,
      hostStarted: offscreenHost?.started,
    });
  }
});
