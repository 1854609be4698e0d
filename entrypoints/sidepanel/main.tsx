import { render } from 'preact';
import { createSharingStore, type SharingPortLike } from '@/components/sharing/create-sharing-store';
import { SHARING_PORT_NAME } from '@/lib/messaging/mcp-bridge-messages';
import { PanelShell } from '@/components/panel/panel-shell';
import { createPanelStore } from '@/components/panel/create-panel-store';
import type { AuditPorts } from '@/components/inspector/create-audit-state';
import { followTab } from '@/components/panel/follow-tab';
import { createAgentClient, type PanelPort } from '@/lib/messaging/agent-client';
import { AGENT_PORT_NAME } from '@/lib/messaging/agent-messages';
import '@/components/shared/theme.css';
import '@/components/chat/chat.css';
import '@/components/inspector/inspector.css';
import '@/components/inspector/audit.css';
import '@/components/sharing/sharing.css';

const client = createAgentClient({
  connect: () => browser.runtime.connect({ name: AGENT_PORT_NAME }) as unknown as PanelPort,
  // Any message wakes Chrome's service worker, which recreates the offscreen agent host if it is gone.
  wake: () => browser.runtime.sendMessage({ type: 'host/ping' }),
});
// What this tab shares with desktop agents (lib/mcp-bridge): the store asks again when the panel's tab or its page changes.
const sharing = createSharingStore({
  connect: () => browser.runtime.connect({ name: SHARING_PORT_NAME }) as unknown as SharingPortLike,
  wake: () => browser.runtime.sendMessage({ type: 'host/ping' }),
});

/** Loads a URL in a tab and resolves once it has finished loading (evals reload the page before every case). */
const tabs = {
  load: (tabId: number, url: string) =>
    new Promise<void>((resolve, reject) => {
      const onUpdated = (id: number, change: { status?: string }) => {
        if (id !== tabId || change.status !== 'complete') return;
        browser.tabs.onUpdated.removeListener(onUpdated);
        resolve();
      };
      browser.tabs.onUpdated.addListener(onUpdated);
      browser.tabs.update(tabId, { url }).catch((error: unknown) => {
        browser.tabs.onUpdated.removeListener(onUpdated);
        reject(error);
      });
    }),
};

/** What the audit reads from the browser: the forms of every frame of the tab, and the site's agent. */
const audit: AuditPorts = {
  scanForms: (tabId) => browser.scripting.executeScript({ target: { tabId, allFrames: true }, files: ['/form-scan.js'] }),
  async siteAgentFor(url) {
    const { createSettingsStore } = await import('@/lib/storage/settings-store');
    const { createIndexedDbStorageArea } = await import('@/lib/storage/indexed-db-storage-area');
    // Where the options page keeps the site profiles (Firefox: the extension's IndexedDB, see entrypoints/options).
    const local = import.meta.env.FIREFOX
      ? createIndexedDbStorageArea({ indexedDB, openChannel: (name) => new BroadcastChannel(name) })
      : browser.storage.local;
    return createSettingsStore({ local }).siteAgentFor(url);
  },
};

// The task chooser's tabs: ids only (a tab's site, title and tools are the host's word: panel/list-tabs).
const openTabIds = async () => (await browser.tabs.query({})).flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));

const store = createPanelStore(client, { tabs, audit, sharing, openTabIds });

// sidepanel.html?tab=<id> stays on one tab; otherwise the panel follows its window's active tab.
void followTab(
  location.search,
  {
    get: (tabId) => browser.tabs.get(tabId),
    activeTab: async () => (await browser.tabs.query({ active: true, currentWindow: true }))[0],
    onActivated: (listener) => browser.tabs.onActivated.addListener(listener),
    onUpdated: (listener) => browser.tabs.onUpdated.addListener((tabId, change) => listener(tabId, change)),
  },
  store.bind,
);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') store.refresh();
});

// The headless eval runner (`npm run eval`) drives the same evals as the Develop view, through this page.
(globalThis as { webmcpAgentEvals?: unknown }).webmcpAgentEvals = {
  async run(fileText: string, url: string, options: { confirm?: 'allow-once' | 'deny' } = {}) {
    const { whenAgentReady } = await import('@/components/inspector/when-agent-ready');
    const evals = (await store.develop()).evals();
    if (!evals.load(fileText, 'evals.json')) return { ok: false, errors: evals.errors.value };
    const ready = await whenAgentReady(store);
    if (!ready.ok) return { ok: false, errors: [ready.reason] };
    evals.url.value = url;
    const report = await evals.run({ autoConfirm: options.confirm ?? 'allow-once' });
    return report ? { ok: true, report } : { ok: false, errors: evals.errors.value };
  },
};

// The headless audit (`npm run audit`) audits the followed tab through the same state as the Audit view.
(globalThis as { webmcpAgentAudit?: unknown }).webmcpAgentAudit = {
  async run() {
    const { whenToolsSettle } = await import('@/components/inspector/create-audit-state');
    await whenToolsSettle(store);
    return (await store.develop()).audit().run();
  },
};

render(<PanelShell store={store} onOpenOptions={() => void browser.runtime.openOptionsPage()} />, document.getElementById('app')!);
