import { describe, expect, it } from 'vitest';
import type { AgentAdapter, AgentRunRequest, AgentStreamPart, PageContext } from '../agent/types';
import { createConversationStore } from '../storage/conversations';
import { createSettingsStore } from '../storage/settings-store';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import type { HostRouterClient } from './agent-host-deps';
import { createTabParts } from './create-tab-parts';
import { SITE_UNKNOWN_RUN_ERROR } from './create-tab-runs';

const SHOP = 'https://shop.test';

/** A model (mock) that says `text`, waiting first for `hold` when given one; it records the requests it got. */
function sayingModel(text: string, hold?: Promise<void> | 'until-stopped') {
  const requests: AgentRunRequest[] = [];
  const adapter: AgentAdapter = {
    id: 'scripted',
    label: 'Scripted',
    async *run(req): AsyncGenerator<AgentStreamPart> {
      requests.push(req);
      if (hold === 'until-stopped') {
        await new Promise((resolve) => req.signal.addEventListener('abort', resolve));
        return;
      }
      await hold;
      yield { type: 'message-start', messageId: `m${requests.length}` };
      yield { type: 'text-delta', messageId: `m${requests.length}`, delta: `${text} ${requests.length}` };
      yield { type: 'finish', reason: 'stop' };
    },
  };
  return { adapter, requests };
}

/** A tab's parts over real in-memory storage, settings and a bridge whose page the test sets (none: no address yet, loading). */
function setup(adapter: AgentAdapter, page: PageContext | undefined) {
  const local = createMemoryStorageArea();
  const bridge: HostRouterClient = {
    getTools: async (tabId) => ({ tabId, tools: [], page: page ?? {} }),
    callTool: async () => ({ content: [] }),
    subscribe: () => () => {},
  };
  let changes = 0;
  const parts = createTabParts(
    {
      tabId: 1,
      store: createConversationStore(local, { session: 's' }),
      bridge,
      settings: createSettingsStore({ local }),
      adapter: async () => adapter,
      generateId: () => crypto.randomUUID(),
      saveDelayMs: 1,
    },
    { emit: () => changes++, emitNow: () => changes++ },
  );
  return { parts, changes: () => changes };
}

const user = (text: string) => ({ id: text, role: 'user' as const, parts: [{ type: 'text' as const, text }] });
const texts = (parts: ReturnType<typeof setup>['parts']) =>
  parts.conversation.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])));

describe('createTabRuns', () => {
  it('does not start a Retry while nobody knows the tab’s site, and says so; nothing reaches the model', async () => {
    const model = sayingModel('hello');
    const { parts } = setup(model.adapter, undefined);
    await parts.ready;
    await parts.runs.run([user('hi')]);
    expect(model.requests).toEqual([]);
    expect(parts.conversation.running).toBe(false);
    expect(parts.conversation.lastRun).toEqual({ reason: 'error', error: SITE_UNKNOWN_RUN_ERROR });
    expect(parts.conversation.sites).toEqual([]);
  });

  it('runs one after the other, each on the conversation as the one before left it, and the conversation holds the site', async () => {
    let release = () => {};
    const hold = new Promise<void>((resolve) => (release = resolve));
    const model = sayingModel('answer', hold);
    const { parts, changes } = setup(model.adapter, { url: `${SHOP}/cart`, title: 'Cart' });
    await parts.ready;
    const first = parts.runs.run([user('one')], SHOP);
    const second = parts.runs.run([user('two')], SHOP);
    await new Promise((r) => setTimeout(r, 20));
    expect(model.requests).toHaveLength(1);
    expect(parts.conversation.running).toBe(true);
    expect(parts.runs.guard()).toBeDefined();
    release();
    await first;
    await second;
    await parts.runs.idle();
    expect(model.requests).toHaveLength(2);
    // The run's site as the router has it (the on-device ranker favours its tools in a task across tabs).
    expect(model.requests.map((r) => r.site)).toEqual([SHOP, SHOP]);
    expect(texts(parts)).toEqual(['two', 'answer 2']);
    expect(parts.conversation.lastRun).toEqual({ reason: 'stop' });
    expect(parts.conversation.sites).toEqual([SHOP]);
    expect(parts.runs.guard()).toBeUndefined();
    expect(changes()).toBeGreaterThan(0);
  });

  it('a run stopped by abort ends as aborted', async () => {
    const model = sayingModel('stopped', 'until-stopped');
    const { parts } = setup(model.adapter, { url: `${SHOP}/cart`, title: 'Cart' });
    await parts.ready;
    const run = parts.runs.run([user('one')], SHOP);
    while (model.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    parts.runs.abort();
    await run;
    expect(parts.conversation.running).toBe(false);
    expect(parts.conversation.lastRun?.reason).toBe('aborted');
  });
});
