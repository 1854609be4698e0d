import { describe, expect, it } from 'vitest';
import type { AdapterStatus } from '../../lib/agent/types';
import type { TabSnapshot } from '../../lib/messaging/agent-messages';
import { createAdapterSlice } from './create-adapter-slice';
import { createConversationSlice } from './create-conversation-slice';
import { createTabSlice } from './create-tab-slice';
import { fakeAgentClient } from './fake-agent-client';

const snapshot = (patch: Partial<TabSnapshot> = {}): TabSnapshot => ({
  tabId: 1,
  messages: [],
  running: false,
  confirmations: [],
  tools: [],
  toolsKnown: true,
  ...patch,
});

function setup(url: string | null = 'https://shop.test/') {
  const client = fakeAgentClient();
  const tabs = createTabSlice(client);
  const adapters = createAdapterSlice(client);
  const conversation = createConversationSlice(client, tabs, adapters.adapter);
  client.subscribe((event) => {
    tabs.receive(event);
    conversation.receive(event);
    adapters.receive(event);
  });
  tabs.follow(1, url ?? undefined);
  const status = (state: AdapterStatus) =>
    client.emit({ type: 'panel/adapters', chosen: 'local', adapters: [{ kind: 'local', label: 'On-device', status: state, models: [] }] });
  const sends = () => client.sent.filter((i) => i.type === 'panel/send');
  return { client, tabs, conversation, status, sends };
}

describe('createConversationSlice', () => {
  it('sends the draft straight out when the host knows the tab shows the site it was typed on', () => {
    const { client, conversation, status, sends } = setup();
    status({ state: 'ready' });
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://shop.test/a' } }) });
    conversation.draft.value = 'find a mug';
    expect(conversation.send()).toBe(true);
    expect(sends()).toEqual([{ type: 'panel/send', tabId: 1, text: 'find a mug', site: 'https://shop.test' }]);
    expect(conversation.draft.value).toBe('');
    expect(conversation.send()).toBe(false);
  });

  it('a message sent while getting ready waits, then goes to its site', () => {
    const { client, conversation, status, sends } = setup();
    conversation.draft.value = 'find a mug';
    expect(conversation.send()).toBe(true);
    expect(conversation.waiting.value).toBe('find a mug');
    status({ state: 'ready' });
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://shop.test/' } }) });
    expect(sends()).toEqual([{ type: 'panel/send', tabId: 1, text: 'find a mug', site: 'https://shop.test' }]);
    expect(conversation.waiting.value).toBeUndefined();
  });

  it('takes no message when nobody knows the tab’s site, and says so', () => {
    const { client, tabs, conversation, status, sends } = setup(null);
    status({ state: 'ready' });
    client.emit({ type: 'panel/tab', snapshot: snapshot({}) });
    conversation.draft.value = 'hello';
    expect(conversation.send()).toBe(false);
    expect(conversation.draft.value).toBe('hello');
    expect(tabs.notice.value).toMatch(/cannot tell which site/);
    expect(sends()).toEqual([]);
  });

  it('leaving the tab brings a waiting message back to the box; a refused message comes back before what was typed since', () => {
    const { client, conversation } = setup();
    conversation.draft.value = 'first';
    conversation.send();
    conversation.leave();
    expect(conversation.waiting.value).toBeUndefined();
    expect(conversation.draft.value).toBe('first');
    client.emit({ type: 'panel/notice', tabId: 2, message: 'other tab', draft: 'not ours' });
    client.emit({ type: 'panel/notice', tabId: 1, message: 'refused', draft: 'refused text' });
    expect(conversation.draft.value).toBe('refused text\n\nfirst');
  });

  it('stop, retry and new chat go to the followed tab; retry and new chat clear the notice', () => {
    const { client, tabs, conversation } = setup();
    tabs.notice.value = 'old';
    conversation.stop();
    conversation.retry();
    expect(tabs.notice.value).toBeUndefined();
    conversation.newChat([]);
    expect(client.sent).toEqual([
      { type: 'panel/stop', tabId: 1 },
      { type: 'panel/retry', tabId: 1 },
      { type: 'panel/new-chat', tabId: 1, seed: [] },
    ]);
  });
});
