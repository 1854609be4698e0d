import { render } from 'preact';
import { ChatApp } from '@/components/chat/chat-app';
import { createChatStore } from '@/components/chat/create-chat-store';
import { createAgentClient, type PanelPort } from '@/lib/messaging/agent-client';
import { AGENT_PORT_NAME } from '@/lib/messaging/agent-messages';
import '@/components/shared/theme.css';
import '@/components/chat/chat.css';

const client = createAgentClient({
  connect: () => browser.runtime.connect({ name: AGENT_PORT_NAME }) as unknown as PanelPort,
  // Any message wakes Chrome's service worker, which recreates the offscreen agent host if it is gone.
  wake: () => browser.runtime.sendMessage({ type: 'host-ping' }),
});
const store = createChatStore(client);

// sidepanel.html?tab=<id> stays on one tab; otherwise the panel follows its window's active tab.
const fixedTab = Number(new URLSearchParams(location.search).get('tab'));
const bindTab = (tabId: number) =>
  browser.tabs.get(tabId).then(
    (tab) => store.bind(tabId, tab.url),
    () => store.bind(tabId),
  );
if (Number.isInteger(fixedTab) && fixedTab > 0) {
  void bindTab(fixedTab);
} else {
  void browser.windows.getCurrent().then(async (window) => {
    const [active] = await browser.tabs.query({ active: true, windowId: window.id });
    if (active?.id !== undefined) store.bind(active.id, active.url);
    browser.tabs.onActivated.addListener(({ tabId, windowId }) => {
      if (windowId === window.id) void bindTab(tabId);
    });
  });
}
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') store.refresh();
});

render(<ChatApp store={store} onOpenOptions={() => void browser.runtime.openOptionsPage()} />, document.getElementById('app')!);
