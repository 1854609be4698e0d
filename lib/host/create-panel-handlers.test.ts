import { describe, expect, it } from 'vitest';
import type { HostEvent, PanelIntent } from '../messaging/agent-messages';
import type { HostPort } from './agent-host-deps';
import { createOpenTabLists } from './create-open-tab-lists';
import { createPanelAskHandlers, createTabIntentHandlers, handlePanelIntent, type PanelHandlers } from './create-panel-handlers';
import type { TabSession } from './create-tab-session';

const PORT = { name: 'panel' } as HostPort;

/** A stand-in for a tab session (mock: only what these handlers read), running or not. */
function sessionStub(running: boolean) {
  const sent: string[] = [];
  const session = {
    ready: Promise.resolve(),
    snapshot: () => ({ tabId: 1, messages: [], running, confirmations: [], tools: [], toolsKnown: true }),
    send: async (text: string) => {
      sent.push(text);
      return text === 'elsewhere' ? { refused: 'This message was typed on another site.' } : undefined;
    },
    reveal: (id: string) => (id === 'open' ? '{"card":"4111"}' : undefined),
  } as unknown as TabSession;
  return { session, sent };
}

function setup(running = false) {
  const { session, sent } = sessionStub(running);
  const posted: HostEvent[] = [];
  const notices: { message: string; tabId?: number; draft?: string }[] = [];
  const handlers = createTabIntentHandlers({
    session: async () => session,
    follow: () => undefined,
    summaries: async () => ({ chosen: 'local', adapters: [] }),
    post: (_port, event) => void posted.push(event),
    notice: (_port, message, tabId, draft) => void notices.push({ message, tabId, draft }),
    postTimeline: async () => undefined,
  });
  const all: PanelHandlers = {
    ...handlers,
    'panel/choose-adapter': () => undefined,
    'panel/choose-model': () => undefined,
    'panel/prepare': () => undefined,
    'panel/cancel-prepare': () => undefined,
  };
  const handle = (intent: PanelIntent, ...port: [HostPort | undefined] | []) =>
    handlePanelIntent(all, intent, port.length ? port[0] : PORT);
  return { handle, posted, notices, sent };
}

describe('createTabIntentHandlers', () => {
  it('refuses a message while a reply runs, and puts back a message refused for its site', async () => {
    const busy = setup(true);
    await busy.handle({ type: 'panel/send', tabId: 1, text: 'hi', site: 'https://shop.test' });
    expect(busy.sent).toEqual([]);
    expect(busy.notices).toEqual([{ message: 'A reply is still running: wait for it, or press Stop.', tabId: 1, draft: undefined }]);

    const idle = setup(false);
    await idle.handle({ type: 'panel/send', tabId: 1, text: 'elsewhere', site: 'https://shop.test' });
    expect(idle.notices).toEqual([{ message: 'This message was typed on another site.', tabId: 1, draft: 'elsewhere' }]);
  });

  it('reveals a question’s arguments only while it is open', async () => {
    const { handle, posted } = setup();
    await handle({ type: 'panel/reveal', tabId: 1, confirmationId: 'closed' });
    await handle({ type: 'panel/reveal', tabId: 1, confirmationId: 'open' });
    expect(posted).toEqual([{ type: 'panel/revealed', tabId: 1, confirmationId: 'open', input: '{"card":"4111"}' }]);
  });
});

describe('createPanelAskHandlers', () => {
  const router = {
    getTools: async (tabId: number) => ({ tabId, tools: [], page: { url: 'https://recipes.test/', title: 'Recipes' } }),
    subscribe: () => () => true,
  };
  const asks = () =>
    createPanelAskHandlers(
      {
        session: async () => sessionStub(false).session,
        summaries: async () => ({ chosen: 'local', adapters: [] }),
        keys: async () => ['sk-secret'],
        lists: createOpenTabLists(router),
      },
      PORT,
    );
  const context = (signal = new AbortController().signal, update: (value: unknown) => void = () => {}) => ({ signal, update });

  it('answers a redaction with the key replaced', async () => {
    const handlers = asks();
    await expect(handlers['panel/redact']?.({ value: { header: 'Bearer sk-secret' } }, context())).resolves.toEqual({
      value: { header: 'Bearer [redacted]' },
    });
  });

  it('refuses an ask whose fields are not what its type declares', async () => {
    const handlers = asks();
    for (const request of [
      { tabId: 'one', format: 'json' },
      { tabId: 1, format: 'pdf' },
      { tabId: 1, format: 'json', secretFields: [1] },
    ]) {
      await expect(handlers['panel/export-transcript']?.(request as never, context())).rejects.toThrow(
        'The host did not understand a message from the panel.',
      );
    }
    await expect(handlers['panel/run-tool']?.({ tabId: 1, name: 'pay', input: [] } as never, context())).rejects.toThrow(/understand/);
  });

  it('keeps a list of open tabs until the panel cancels it, describing it as an update', async () => {
    const handlers = asks();
    const cancel = new AbortController();
    const updates: unknown[] = [];
    const listing = handlers['panel/list-tabs']?.(
      { tabId: 1, tabIds: [2] },
      context(cancel.signal, (u) => updates.push(u)),
    );
    while (updates.length === 0) await new Promise((r) => setTimeout(r, 1));
    expect(updates).toEqual([[{ tabId: 2, site: 'https://recipes.test', title: 'Recipes', toolCount: 0 }]]);
    cancel.abort();
    await expect(listing).resolves.toBeNull();
  });
});
