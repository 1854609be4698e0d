import { describe, expect, it } from 'vitest';
import { FORM_WAITS_PROMPT } from '../messaging/router-messages';
import { report, settle, setup, tool, until } from '../testing/tool-router-fixtures';
import { createRouterClient } from './create-router-client';

describe('createRouterClient (the offscreen host) against the router', () => {
  it('gets snapshots, runs calls, relays awaiting-confirmation states and tool changes, and cancels', async () => {
    let release!: () => void;
    const { router, hostMessages, ports } = setup(async (message, _frameId, context) => {
      if (message.type !== 'bridge/call') return undefined;
      context?.update({ state: 'awaiting-confirmation' });
      await new Promise<void>((r) => {
        release = r;
      });
      return { kind: 'output', output: { content: [{ type: 'text', text: 'sent' }] } };
    });
    // runtime messaging cannot run in Node: the mock delivers host messages to the router and its broadcasts back.
    const listeners: ((m: unknown) => void)[] = [];
    ports.notifyHost = (m) => {
      hostMessages.push(m);
      for (const l of listeners) l(m);
    };
    const asked: string[] = [];
    const client = createRouterClient({
      sendMessage: async (m) => {
        asked.push(m.type);
        return structuredClone(await router.handleHostMessage(m));
      },
      onMessage: (l) => listeners.push(l),
    });
    const changed: number[] = [];
    client.subscribe((tabId) => changed.push(tabId));
    // The first look at a tab asks the router, which watches the tab from then on and pushes its changes.
    expect((await client.getTools(1)).tools).toEqual([]);
    expect(asked).toEqual(['router/get-tools']);
    router.handleFrameMessage(
      { type: 'frame/tools', report: report('http://a.test', [tool('send', { declarative: true, needsConfirmation: true })]) },
      { tabId: 1, frameId: 0 },
    );
    // Pushed (coalesced over a few milliseconds): the client learns without asking.
    await until(async () => expect((await client.getTools(1)).tools.map((t) => t.name)).toEqual(['send']));
    expect(changed.at(-1)).toBe(1);
    expect(asked).toEqual(['router/get-tools']);

    const states: unknown[] = [];
    const call = client.callTool(1, { id: 'c', name: 'send', input: {} }, { onState: (s) => states.push(s) });
    await settle();
    // A form's call that waits for the person, in the background's own words.
    expect(states).toEqual([{ state: 'awaiting-confirmation', prompt: FORM_WAITS_PROMPT }]);
    release();
    expect(await call).toEqual({ content: [{ type: 'text', text: 'sent' }] });
    // One call, one message: its answer brought the tools after it.
    expect(asked).toEqual(['router/get-tools', 'router/call-tool']);

    const controller = new AbortController();
    const cancelled = client.callTool(1, { id: 'd', name: 'send', input: {} }, { signal: controller.signal });
    await settle();
    controller.abort();
    expect(await cancelled).toEqual({
      content: [{ type: 'text', text: 'Error [cancelled]: "send" was cancelled; the page was told (toolcancel).' }],
      isError: true,
    });
  });

  it('keeps the background awake while a call waits, and stops when it ends', async () => {
    const sent: string[] = [];
    let answer!: (output: unknown) => void;
    const client = createRouterClient({
      sendMessage: (m) => {
        sent.push(m.type);
        return m.type === 'router/call-tool' ? new Promise((r) => (answer = r)) : Promise.resolve(true);
      },
      onMessage: () => {},
      keepaliveMs: 20,
    });
    const call = client.callTool(1, { id: 'x', name: 't', input: {} });
    await new Promise((r) => setTimeout(r, 200));
    answer({ output: { content: [{ type: 'text', text: 'done' }] }, snapshot: { tabId: 1, tools: [], page: {}, revision: 1 } });
    expect(await call).toEqual({ content: [{ type: 'text', text: 'done' }] });
    const count = sent.filter((t) => t === 'router/keepalive').length;
    expect(count).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(sent.filter((t) => t === 'router/keepalive').length).toBe(count);
    const { router } = setup();
    expect(await router.handleHostMessage({ type: 'router/keepalive' })).toBe(true);
  });

  it('never rejects: a background that does not answer is frame_gone', async () => {
    const client = createRouterClient({
      sendMessage: async () => {
        throw new Error('Extension context invalidated.');
      },
      onMessage: () => {},
    });
    expect(await client.callTool(1, { id: 'x', name: 't', input: {} })).toEqual({
      content: [{ type: 'text', text: 'Error [frame_gone]: The extension background did not answer: Extension context invalidated.' }],
      isError: true,
    });
  });

  it('tells its subscribers of a snapshot once: the push of the revision a call’s answer brought is no news', async () => {
    const listeners: ((m: unknown) => void)[] = [];
    const snapshot = (revision: number, tools: string[]) => ({
      tabId: 1,
      revision,
      page: {},
      tools: tools.map((name) => ({ name, originalName: name, description: name, inputSchema: {}, origin: 'https://a.test', frameId: 0 })),
    });
    const push = (m: unknown) => {
      for (const l of listeners) l(m);
    };
    const client = createRouterClient({
      sendMessage: async (m) =>
        m.type === 'router/call-tool'
          ? { output: { content: [{ type: 'text', text: 'ok' }] }, snapshot: snapshot(7, ['a', 'b']) }
          : undefined,
      onMessage: (l) => listeners.push(l),
    });
    const changed: number[] = [];
    client.subscribe((tabId) => changed.push(tabId));
    push({ type: 'host/tools-changed', tabId: 1, snapshot: snapshot(5, ['a']) });
    await client.callTool(1, { id: 'c', name: 'a', input: {} });
    expect(changed).toEqual([1, 1]);
    push({ type: 'host/tools-changed', tabId: 1, snapshot: snapshot(7, ['a', 'b']) });
    push({ type: 'host/tools-changed', tabId: 1, snapshot: snapshot(6, ['a']) });
    expect(changed).toEqual([1, 1]);
    // The same revision with other tools (a state the router changed without saving) is news all the same.
    push({ type: 'host/tools-changed', tabId: 1, snapshot: snapshot(7, ['b']) });
    expect(changed).toEqual([1, 1, 1]);
    expect((await client.getTools(1)).tools.map((t) => t.name)).toEqual(['b']);
  });
});
