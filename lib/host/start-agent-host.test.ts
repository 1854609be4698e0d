import { describe, expect, it } from 'vitest';
import type { AgentAdapter, AgentRunRequest, AgentStreamPart, ToolOutput } from '../agent/types';
import type { TabToolEntry } from '../background/tool-bridge';
import { createAgentClient } from '../messaging/agent-client';
import { AGENT_PORT_NAME, type HostEvent, type TabSnapshot } from '../messaging/agent-messages';
import { createAgentPortPair } from '../messaging/agent-port-pair';
import { createMemoryStorageArea } from '../storage/memory-storage-area';
import { createSettingsStore } from '../storage/settings-store';
import type { StorageArea } from '../storage/storage-area';
import type { HostPort, HostToolBridge } from './agent-host-deps';
import { createAdapterRegistry } from './create-adapter-registry';
import { DECLINED_CALL_ERROR, INTERRUPTED_RUN_ERROR } from './create-tab-session';
import { startAgentHost } from './start-agent-host';

const EXTENSION = { id: 'webmcp-agent-test-id', origin: 'chrome-extension://webmcp-agent-test-id/' };
/** What the browser attests for the side panel (open in a tab here, as the E2E opens it). */
const PANEL_SENDER = { id: EXTENSION.id, url: `${EXTENSION.origin}sidepanel.html?tab=1`, origin: 'chrome-extension://webmcp-agent-test-id' };
/** What the browser attests for a content script of a page: the extension's id, the page's URL and origin. */
const CONTENT_SCRIPT_SENDER = { id: EXTENSION.id, url: 'https://evil.test/', origin: 'https://evil.test' };

const PAGE = { url: 'https://shop.test/cart', title: 'Cart', h1: 'Your cart' };
const where = { origin: 'https://shop.test', frameId: 0 };
const TOOLS: TabToolEntry[] = [
  { name: 'search', originalName: 'search', ...where, description: 'Search products', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'check_out', originalName: 'check_out', ...where, description: 'Buy the cart', inputSchema: { type: 'object' }, annotations: { consequentialHint: true } },
];

/** A tool the page does not annotate at all, as most pages do not. */
const UNMARKED: TabToolEntry = { name: 'add_to_cart', originalName: 'add_to_cart', ...where, description: 'Add', inputSchema: { type: 'object' } };

/** An in-memory page bridge: tools per tab, calls answered by functions, calls recorded. */
function memoryBridge(tools: TabToolEntry[] = TOOLS) {
  const calls: { tabId: number; name: string; input: unknown }[] = [];
  const listeners = new Set<(tabId: number) => void>();
  const bridge: HostToolBridge & { calls: typeof calls; tools: TabToolEntry[]; changed(tabId: number): void } = {
    calls,
    tools,
    getTools: async (tabId) => ({ tabId, tools: bridge.tools, page: PAGE }),
    callTool: async (tabId, call, options) => {
      calls.push({ tabId, name: call.name, input: call.input });
      if (options?.signal?.aborted) return { content: [{ type: 'text', text: 'Error [cancelled]: stopped.' }], isError: true };
      return { content: [{ type: 'text', text: `${call.name} ok` }] };
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed: (tabId) => {
      for (const l of listeners) l(tabId);
    },
  };
  return bridge;
}

/**
 * A scripted adapter (mock of a model): each run plays the next script, which may call tools through the request
 * exactly as a real adapter does. Records the requests it got.
 */
function scriptedAdapter(scripts: ((req: AgentRunRequest) => AsyncGenerator<AgentStreamPart>)[]) {
  const requests: AgentRunRequest[] = [];
  const adapter: AgentAdapter & { requests: AgentRunRequest[] } = {
    id: 'scripted',
    label: 'Scripted',
    requests,
    async *run(req) {
      requests.push(req);
      const script = scripts.shift();
      if (!script) throw new Error('no script left');
      yield* script(req);
    },
  };
  return adapter;
}

let runs = 0;
async function* callThenSay(req: AgentRunRequest, tool: string, text: string): AsyncGenerator<AgentStreamPart> {
  const n = ++runs;
  yield { type: 'message-start', messageId: `m-${tool}-${n}` };
  yield { type: 'tool-call', messageId: `m-${tool}-${n}`, id: `call-${tool}-${n}`, name: tool, input: {} };
  const output: ToolOutput = await req.callTool({ id: `call-${tool}-${n}`, name: tool, input: {} });
  const first = output.content[0];
  const said = first?.type === 'text' ? first.text : '';
  yield output.isError ? { type: 'tool-error', id: `call-${tool}-${n}`, error: said } : { type: 'tool-result', id: `call-${tool}-${n}`, output };
  yield { type: 'message-start', messageId: `m2-${tool}-${n}` };
  yield { type: 'text-delta', messageId: `m2-${tool}-${n}`, delta: text };
  yield { type: 'finish', reason: 'stop' };
}

function setup(options: { adapter: AgentAdapter; local?: StorageArea; session?: StorageArea; bridge?: ReturnType<typeof memoryBridge> }) {
  const local = options.local ?? createMemoryStorageArea();
  const session = options.session ?? createMemoryStorageArea();
  const bridge = options.bridge ?? memoryBridge();
  const settings = createSettingsStore({ local });
  const connectListeners = new Set<(port: HostPort) => void>();
  const host = startAgentHost({
    bridge,
    settings,
    adapters: createAdapterRegistry([{ kind: 'local', create: () => options.adapter }]),
    storage: { local, session },
    onConnect: { addListener: (l) => void connectListeners.add(l) },
    extension: EXTENSION,
    saveDelayMs: 5,
    emitDelayMs: 1,
  });
  const connect = (sender: typeof PANEL_SENDER = PANEL_SENDER) => {
    const pair = createAgentPortPair(AGENT_PORT_NAME, sender);
    for (const l of connectListeners) l(pair.host);
    return pair;
  };
  /** A panel over a real client: collects the host's events. */
  const panel = (tabId: number, url?: string) => {
    const events: HostEvent[] = [];
    let pair: ReturnType<typeof connect> | undefined;
    const client = createAgentClient({
      connect: () => {
        pair = connect();
        return pair.panel;
      },
      retryDelayMs: 1,
    });
    client.subscribe((e) => events.push(e));
    client.send({ type: 'bind', tabId, ...(url ? { url } : {}) });
    const latest = (): TabSnapshot | undefined =>
      (events.filter((e) => e.type === 'tab' && e.snapshot.tabId === tabId).at(-1) as { snapshot: TabSnapshot } | undefined)
        ?.snapshot;
    return { client, events, latest, hostSide: () => pair!.host };
  };
  return { host, local, session, bridge, settings, panel, connect };
}

const until = async <T>(read: () => T | undefined | false, what = 'condition'): Promise<T> => {
  for (let i = 0; i < 400; i++) {
    const value = read();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
};

const textOf = (snapshot: TabSnapshot | undefined) =>
  snapshot?.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'text' ? [`${m.role}: ${p.text}`] : []))) ?? [];

describe('startAgentHost', () => {
  it('runs a message end to end: tools from the bridge, parts to the panel, the conversation persisted', async () => {
    const adapter = scriptedAdapter([(req) => callThenSay(req, 'search', 'Found 3 lamps.')]);
    const { panel, local, bridge, host } = setup({ adapter });
    const p = panel(7, PAGE.url);
    await until(() => p.latest()?.toolsKnown, 'tools');
    expect(p.latest()!.tools.map((t) => t.name)).toEqual(['search', 'check_out']);
    p.client.send({ type: 'send', tabId: 7, text: '  find lamps  ' });
    await until(() => p.latest()?.lastRun, 'run end');
    const done = p.latest()!;
    expect(textOf(done)).toEqual(['user: find lamps', 'assistant: Found 3 lamps.']);
    expect(done.running).toBe(false);
    expect(done.lastRun).toEqual({ reason: 'stop' });
    expect(bridge.calls).toEqual([{ tabId: 7, name: 'search', input: {} }]);
    const req = adapter.requests[0];
    expect(req.messages.map((m) => m.role)).toEqual(['user']);
    expect(req.tools.map((t) => t.name)).toEqual(['search', 'check_out']);
    expect(req.page).toEqual(PAGE);
    await (await host.session(7)).idle();
    const stored = await local.get(['conversations']);
    expect(stored.conversations).toHaveLength(1);
  });

  it('keeps the conversation across a host restart in the same browser session, and adopts it by URL after a browser restart', async () => {
    const local = createMemoryStorageArea();
    const session = createMemoryStorageArea();
    const first = setup({ adapter: scriptedAdapter([(req) => callThenSay(req, 'search', 'Done.')]), local, session });
    const p = first.panel(3, PAGE.url);
    await until(() => p.latest(), 'bind');
    p.client.send({ type: 'send', tabId: 3, text: 'hello' });
    await until(() => p.latest()?.lastRun, 'run end');
    await (await first.host.session(3)).idle();

    // Host restart (offscreen document recreated): same session storage, same tab id.
    const second = setup({ adapter: scriptedAdapter([]), local, session });
    const q = second.panel(3);
    await until(() => q.latest(), 'rebind');
    expect(textOf(q.latest())).toEqual(['user: hello', 'assistant: Done.']);

    // Browser restart: session storage is empty, the tab came back as 12 on the same URL; tab 3 is now a stranger.
    const third = setup({ adapter: scriptedAdapter([]), local, session: createMemoryStorageArea() });
    const stranger = third.panel(3, 'https://elsewhere.test/');
    await until(() => stranger.latest(), 'stranger');
    expect(stranger.latest()!.messages).toEqual([]);
    const restored = third.panel(12, PAGE.url);
    await until(() => restored.latest(), 'restored');
    expect(textOf(restored.latest())).toEqual(['user: hello', 'assistant: Done.']);
  });

  it('asks before a consequential tool: Allow once runs it, Deny tells the model the person declined', async () => {
    const adapter = scriptedAdapter([
      (req) => callThenSay(req, 'check_out', 'Bought.'),
      (req) => callThenSay(req, 'check_out', 'Not bought.'),
    ]);
    const { panel, bridge } = setup({ adapter });
    const p = panel(1, PAGE.url);
    await until(() => p.latest(), 'bind');
    p.client.send({ type: 'send', tabId: 1, text: 'buy it' });
    const asking = await until(() => p.latest()?.confirmations[0], 'confirmation');
    expect(asking).toMatchObject({ toolName: 'check_out', origin: 'https://shop.test' });
    expect(asking.prompt).toContain('Allow check_out on shop.test?');
    const card = p.latest()!.messages.at(-1)!.parts[0];
    expect(card).toMatchObject({ type: 'tool', state: 'awaiting-confirmation', prompt: asking.prompt });
    expect(bridge.calls).toEqual([]);
    p.client.send({ type: 'confirm', tabId: 1, confirmationId: asking.id, answer: 'allow-once' });
    await until(() => p.latest()?.lastRun, 'first run end');
    expect(bridge.calls.map((c) => c.name)).toEqual(['check_out']);

    p.client.send({ type: 'send', tabId: 1, text: 'buy again' });
    const second = await until(() => p.latest()?.running && p.latest()?.confirmations[0], 'second confirmation');
    p.client.send({ type: 'confirm', tabId: 1, confirmationId: second.id, answer: 'deny' });
    await until(() => !p.latest()?.running && p.latest()?.lastRun, 'second run end');
    expect(bridge.calls.map((c) => c.name)).toEqual(['check_out']);
    const declined = p.latest()!.messages.flatMap((m) => m.parts).filter((x) => x.type === 'tool').at(-1);
    expect(declined).toMatchObject({ state: 'cancelled', error: DECLINED_CALL_ERROR('check_out') });
  });

  it('a content script that connects with the panel port name is cut off: no snapshot, its confirm changes nothing', async () => {
    const adapter = scriptedAdapter([(req) => callThenSay(req, 'check_out', 'Bought.')]);
    const { panel, bridge, connect } = setup({ adapter });
    const p = panel(1, PAGE.url);
    await until(() => p.latest(), 'bind');
    p.client.send({ type: 'send', tabId: 1, text: 'buy it' });
    const asking = await until(() => p.latest()?.confirmations[0], 'confirmation');

    const attacker = connect(CONTENT_SCRIPT_SENDER);
    const heard: unknown[] = [];
    let cut = false;
    attacker.panel.onMessage.addListener((m) => heard.push(m));
    attacker.panel.onDisconnect.addListener(() => {
      cut = true;
    });
    await until(() => cut, 'the host to disconnect the content script');
    expect(() => attacker.panel.postMessage({ type: 'confirm', tabId: 1, confirmationId: asking.id, answer: 'allow-once' })).toThrow();
    expect(heard).toEqual([]);
    expect(p.latest()!.confirmations).toHaveLength(1);
    expect(bridge.calls).toEqual([]);
  });

  it('judges the tool that will run: one that appeared during the run is still asked about', async () => {
    const bridge = memoryBridge([TOOLS[0]]);
    const adapter = scriptedAdapter([
      (req) => {
        // The page adds check_out mid-run (a view changed), before any change notice reaches the host.
        bridge.tools = TOOLS;
        return callThenSay(req, 'check_out', 'ok');
      },
    ]);
    const { panel } = setup({ adapter, bridge });
    const p = panel(1, PAGE.url);
    await until(() => p.latest()?.toolsKnown, 'tools');
    p.client.send({ type: 'send', tabId: 1, text: 'buy' });
    await until(() => p.latest()?.confirmations[0]?.toolName === 'check_out', 'confirmation');
    expect(bridge.calls).toEqual([]);
  });

  it('after a call the tools getter already shows the tools the call made appear, before any change notice', async () => {
    const bridge = memoryBridge([TOOLS[0]]);
    const original = bridge.callTool;
    bridge.callTool = async (tabId, call, options) => {
      // Opening a view registers check_out; no change notice is sent.
      bridge.tools = TOOLS;
      return original(tabId, call, options);
    };
    let seen: string[] = [];
    const adapter = scriptedAdapter([
      async function* (req) {
        await req.callTool({ id: 'o', name: 'search', input: {} });
        seen = req.tools.map((t) => t.name);
        yield { type: 'finish', reason: 'stop' };
      },
    ]);
    const { panel } = setup({ adapter, bridge });
    const p = panel(1, PAGE.url);
    await until(() => p.latest()?.toolsKnown, 'tools');
    p.client.send({ type: 'send', tabId: 1, text: 'open' });
    await until(() => p.latest()?.lastRun, 'run end');
    expect(seen).toEqual(['search', 'check_out']);
  });

  it('a call parked on the page shows its prompt in the card, without an Allow question', async () => {
    let submit!: () => void;
    const bridge = memoryBridge();
    bridge.callTool = async (_tabId, call, options) => {
      options?.onState?.({ state: 'awaiting-confirmation', prompt: 'Press Subscribe on the page.' });
      await new Promise<void>((r) => {
        submit = r;
      });
      return { content: [{ type: 'text', text: `${call.name} ok` }] };
    };
    const adapter = scriptedAdapter([(req) => callThenSay(req, 'search', 'Subscribed.')]);
    const { panel } = setup({ adapter, bridge });
    const p = panel(1, PAGE.url);
    await until(() => p.latest(), 'bind');
    p.client.send({ type: 'send', tabId: 1, text: 'subscribe' });
    const parked = await until(() => {
      const part = p.latest()?.messages.at(-1)?.parts[0];
      return part?.type === 'tool' && part.state === 'awaiting-confirmation' ? part : undefined;
    }, 'parked call');
    expect(parked.prompt).toBe('Press Subscribe on the page.');
    expect(p.latest()!.confirmations).toEqual([]);
    submit();
    await until(() => textOf(p.latest()).includes('assistant: Subscribed.'), 'answer');
    expect(p.latest()!.messages[1].parts[0]).toMatchObject({ state: 'done' });
    expect(p.latest()!.messages[1].parts[0]).not.toHaveProperty('prompt');
  });

  it('"Always on this site" stores a grant, so the next call of that unmarked tool runs without asking', async () => {
    const adapter = scriptedAdapter([(req) => callThenSay(req, 'add_to_cart', 'One.'), (req) => callThenSay(req, 'add_to_cart', 'Two.')]);
    const { panel, bridge, settings } = setup({ adapter, bridge: memoryBridge([...TOOLS, UNMARKED]) });
    const p = panel(1, PAGE.url);
    await until(() => p.latest(), 'bind');
    p.client.send({ type: 'send', tabId: 1, text: 'add' });
    const asking = await until(() => p.latest()?.confirmations[0], 'confirmation');
    expect(asking).toMatchObject({ toolName: 'add_to_cart', allowAlways: true });
    p.client.send({ type: 'confirm', tabId: 1, confirmationId: asking.id, answer: 'allow-always' });
    await until(() => p.latest()?.lastRun, 'run end');
    expect(await settings.isToolGranted('https://shop.test', 'add_to_cart')).toBe(true);
    p.client.send({ type: 'send', tabId: 1, text: 'again' });
    await until(() => textOf(p.latest()).includes('assistant: Two.'), 'second run');
    expect(bridge.calls.map((c) => c.name)).toEqual(['add_to_cart', 'add_to_cart']);
  });

  it('a consequential tool asks every time: no "Always" is offered, one sent anyway stores nothing, a grant is ignored', async () => {
    const adapter = scriptedAdapter([(req) => callThenSay(req, 'check_out', 'One.'), (req) => callThenSay(req, 'check_out', 'Two.')]);
    const { panel, bridge, settings } = setup({ adapter });
    await settings.setConfirmationPolicy('never');
    await settings.grantTool('https://shop.test', 'check_out');
    const p = panel(1, PAGE.url);
    await until(() => p.latest(), 'bind');
    p.client.send({ type: 'send', tabId: 1, text: 'buy' });
    const asking = await until(() => p.latest()?.confirmations[0], 'confirmation despite policy and grant');
    expect(asking).toMatchObject({ toolName: 'check_out', allowAlways: false });
    await settings.revokeGrant('https://shop.test', 'check_out');
    p.client.send({ type: 'confirm', tabId: 1, confirmationId: asking.id, answer: 'allow-always' });
    await until(() => p.latest()?.lastRun, 'run end');
    expect(bridge.calls.map((c) => c.name)).toEqual(['check_out']);
    expect(await settings.isToolGranted('https://shop.test', 'check_out')).toBe(false);
    p.client.send({ type: 'send', tabId: 1, text: 'again' });
    await until(() => p.latest()?.running && p.latest()?.confirmations[0], 'asked again');
  });

  it('the policy "never" runs unmarked tools without asking; "non-read-only" (the default) asks for them, not for read-only ones', async () => {
    const adapter = scriptedAdapter([
      (req) => callThenSay(req, 'add_to_cart', 'ok'),
      (req) => callThenSay(req, 'search', 'ok'),
      (req) => callThenSay(req, 'add_to_cart', 'ok'),
    ]);
    const { panel, settings, bridge } = setup({ adapter, bridge: memoryBridge([...TOOLS, UNMARKED]) });
    await settings.setConfirmationPolicy('never');
    const p = panel(1, PAGE.url);
    await until(() => p.latest(), 'bind');
    p.client.send({ type: 'send', tabId: 1, text: 'add' });
    await until(() => p.latest()?.lastRun, 'run end');
    expect(bridge.calls.map((c) => c.name)).toEqual(['add_to_cart']);
    await settings.setConfirmationPolicy('non-read-only');
    expect((await settings.read()).confirmation).toBe('non-read-only');
    p.client.send({ type: 'send', tabId: 1, text: 'search' });
    await until(() => textOf(p.latest()).filter((t) => t === 'assistant: ok').length === 2, 'read-only search ran');
    expect(bridge.calls.map((c) => c.name)).toEqual(['add_to_cart', 'search']);
    p.client.send({ type: 'send', tabId: 1, text: 'add' });
    await until(() => p.latest()?.confirmations[0]?.toolName === 'add_to_cart', 'ask for add_to_cart');
  });

  it('Stop ends the run (an open confirmation is cancelled) and Retry resumes after the last finished call', async () => {
    const adapter = scriptedAdapter([
      async function* (req) {
        yield { type: 'message-start', messageId: 'a' };
        yield { type: 'tool-call', messageId: 'a', id: 's', name: 'search', input: { q: 'lamp' } };
        yield { type: 'tool-result', id: 's', output: await req.callTool({ id: 's', name: 'search', input: { q: 'lamp' } }) };
        yield { type: 'tool-call', messageId: 'a', id: 'c', name: 'check_out', input: {} };
        const out = await req.callTool({ id: 'c', name: 'check_out', input: {} });
        const first = out.content[0];
        yield { type: 'tool-error', id: 'c', error: first?.type === 'text' ? first.text : '' };
        yield { type: 'finish', reason: req.signal.aborted ? 'aborted' : 'stop' };
      },
      async function* () {
        yield { type: 'message-start', messageId: 'b' };
        yield { type: 'text-delta', messageId: 'b', delta: 'Resumed.' };
        yield { type: 'finish', reason: 'stop' };
      },
    ]);
    const { panel } = setup({ adapter });
    const p = panel(4, PAGE.url);
    await until(() => p.latest(), 'bind');
    p.client.send({ type: 'send', tabId: 4, text: 'buy a lamp' });
    await until(() => p.latest()?.confirmations[0], 'confirmation');
    p.client.send({ type: 'stop', tabId: 4 });
    await until(() => p.latest()?.lastRun, 'stopped');
    const stopped = p.latest()!;
    expect(stopped.lastRun).toEqual({ reason: 'aborted' });
    expect(stopped.confirmations).toEqual([]);
    expect(stopped.messages.at(-1)!.parts.map((x) => (x.type === 'tool' ? `${x.name}:${x.state}` : x.type))).toEqual([
      'search:done',
      'check_out:cancelled',
    ]);
    p.client.send({ type: 'retry', tabId: 4 });
    await until(() => textOf(p.latest()).includes('assistant: Resumed.'), 'retry');
    // The retried run got the conversation up to the finished search, not the cancelled check_out.
    const retried = adapter.requests[1].messages;
    expect(retried.at(-1)!.parts.map((x) => (x.type === 'tool' ? x.name : x.type))).toEqual(['search']);
  });

  it('an adapter error ends the run with its code; Retry runs the user message again', async () => {
    const adapter = scriptedAdapter([
      async function* () {
        yield { type: 'error', error: 'Too many requests.', code: 'rate_limited' };
      },
      async function* () {
        yield { type: 'message-start', messageId: 'x' };
        yield { type: 'text-delta', messageId: 'x', delta: 'Hi.' };
        yield { type: 'finish', reason: 'stop' };
      },
    ]);
    const { panel } = setup({ adapter });
    const p = panel(2);
    await until(() => p.latest(), 'bind');
    p.client.send({ type: 'send', tabId: 2, text: 'hi' });
    await until(() => p.latest()?.lastRun, 'error');
    expect(p.latest()!.lastRun).toEqual({ reason: 'error', error: 'Too many requests.', code: 'rate_limited' });
    p.client.send({ type: 'retry', tabId: 2 });
    await until(() => textOf(p.latest()).includes('assistant: Hi.'), 'retry');
    expect(adapter.requests[1].messages.map((m) => m.role)).toEqual(['user']);
  });

  it('a run survives its panel closing, and a panel that comes back sees the result', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const adapter = scriptedAdapter([
      async function* () {
        yield { type: 'message-start', messageId: 'm' };
        yield { type: 'text-delta', messageId: 'm', delta: 'Working' };
        await gate;
        yield { type: 'text-delta', messageId: 'm', delta: ' done.' };
        yield { type: 'finish', reason: 'stop' };
      },
    ]);
    const { panel, host } = setup({ adapter });
    const p = panel(5);
    await until(() => p.latest(), 'bind');
    p.client.send({ type: 'send', tabId: 5, text: 'go' });
    await until(() => textOf(p.latest()).includes('assistant: Working'), 'streaming');
    p.client.close();
    release();
    await (await host.session(5)).idle();
    const q = panel(5);
    await until(() => q.latest(), 'rebind');
    expect(textOf(q.latest())).toEqual(['user: go', 'assistant: Working done.']);
  });

  it('a stored run that was going when the host died shows as interrupted, with its open calls closed', async () => {
    const local = createMemoryStorageArea();
    const session = createMemoryStorageArea();
    const first = setup({
      adapter: scriptedAdapter([
        async function* () {
          yield { type: 'message-start', messageId: 'm' };
          yield { type: 'tool-call', messageId: 'm', id: 't', name: 'search', input: {} };
          await new Promise(() => {});
        },
      ]),
      local,
      session,
    });
    const p = first.panel(6);
    await until(() => p.latest(), 'bind');
    p.client.send({ type: 'send', tabId: 6, text: 'go' });
    await until(() => p.latest()?.messages.length === 2, 'tool call');
    await (await first.host.session(6)).flush();
    const second = setup({ adapter: scriptedAdapter([]), local, session });
    const q = second.panel(6);
    await until(() => q.latest(), 'rebind');
    expect(q.latest()!.lastRun).toEqual({ reason: 'error', error: INTERRUPTED_RUN_ERROR });
    expect(q.latest()!.messages[1].parts[0]).toMatchObject({ state: 'cancelled' });
  });

  it('a site profile becomes req.agent and filters the tools', async () => {
    const adapter = scriptedAdapter([
      async function* () {
        yield { type: 'finish', reason: 'stop' };
      },
    ]);
    const { panel, settings } = setup({ adapter });
    await settings.saveSiteProfile({ origin: 'https://shop.test', instructions: 'To buy: search, then check_out.', maxSteps: 4, tools: ['search'] });
    const p = panel(8, PAGE.url);
    await until(() => p.latest()?.toolsKnown, 'tools');
    expect(p.latest()!.tools.map((t) => t.name)).toEqual(['search']);
    p.client.send({ type: 'send', tabId: 8, text: 'hi' });
    await until(() => p.latest()?.lastRun, 'run end');
    expect(adapter.requests[0].agent).toEqual({ id: 'https://shop.test', instructions: 'To buy: search, then check_out.', maxSteps: 4, tools: ['search'] });
    expect(adapter.requests[0].tools.map((t) => t.name)).toEqual(['search']);
  });

  it('New chat empties the conversation and the Agent control is stored', async () => {
    const adapter = scriptedAdapter([(req) => callThenSay(req, 'search', 'ok')]);
    const { panel, settings } = setup({ adapter });
    const p = panel(9);
    await until(() => p.latest(), 'bind');
    p.client.send({ type: 'send', tabId: 9, text: 'hi' });
    await until(() => p.latest()?.lastRun, 'run end');
    p.client.send({ type: 'new-chat', tabId: 9 });
    await until(() => p.latest()?.messages.length === 0, 'empty');
    expect(p.latest()!.lastRun).toBeUndefined();
    p.client.send({ type: 'choose-adapter', adapter: 'cloud' });
    const adapters = await until(
      () => p.events.filter((e) => e.type === 'adapters').find((e) => e.type === 'adapters' && e.chosen === 'cloud'),
      'adapters event',
    );
    expect((await settings.read()).mode).toBe('cloud');
    // No cloud adapter in this host: it says so instead of offering a dead choice.
    expect(adapters.type === 'adapters' && adapters.adapters.find((a) => a.kind === 'cloud')?.status.state).toBe('unavailable');
  });

  it('tool changes in the page reach the panel', async () => {
    const { panel, bridge } = setup({ adapter: scriptedAdapter([]) });
    const p = panel(10);
    await until(() => p.latest()?.toolsKnown, 'tools');
    bridge.tools = [TOOLS[0]];
    bridge.changed(10);
    await until(() => p.latest()?.tools.length === 1, 'tool change');
  });
});
