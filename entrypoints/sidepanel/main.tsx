import { render } from 'preact';
import { ChatApp } from '@/components/chat/chat-app';
import { createChatStore } from '@/components/chat/create-chat-store';
import { followTab } from '@/components/chat/follow-tab';
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
void followTab(
  location.search,
  {
    get: (tabId) => browser.tabs.get(tabId),
    activeTab: async () => (await browser.tabs.query({ active: true, currentWindow: true }))[0],
    onActivated: (listener) => browser.tabs.onActivated.addListener(listener),
  },
  store.bind,
);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') store.refresh();
});

render(<ChatApp store={store} onOpenOptions={() => void browser.runtime.openOptionsPage()} />, document.getElementById('app')!);
