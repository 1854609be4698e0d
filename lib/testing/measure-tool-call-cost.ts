/**
 * Measures what tool calls cost the agent host (issue 12, "push, don't pull"): the messages the host sends the
 * background and the storage reads, within each call. Real parts: the host runtime as Chrome's offscreen document
 * wires it, the bridge client and its line, the background's router. Stand-ins, named: runtime Ports and messages
 * (router-line-stand.ts) and the page frame (content scripts cannot run in Node: the router's sendToFrame answers as a frame would) and the model (a scripted
 * adapter). Used by lib/host/tool-call-cost.test.ts and printed by bench/connector.bench.ts.
 */
import { frameCallIn } from './frame-call-in';
import type { AgentAdapter, AgentRunRequest, AgentStreamPart } from '../agent/types';
import { createToolRouter } from '../background/create-tool-router';
import { wireAgentHost } from '../agent-host-root/wire-agent-host';
import type { HostPort } from '../host/agent-host-deps';
import { createAgentClient } from '../messaging/agent-client';
import { AGENT_PORT_NAME, type HostEvent, type TabSnapshot } from '../messaging/agent-messages';
import { createAgentPortPair } from './agent-port-pair';
import type { BackgroundToFrameMessage } from '../messaging/router-messages';
import { createRouterLineStand } from './router-line-stand';
import { createMemoryStorageArea } from './memory-storage-area';
import type { StorageArea } from '../messaging/storage-area';

const EXTENSION = { id: 'webmcp-agent-test-id', origin: 'chrome-extension://webmcp-agent-test-id/' };
const PANEL_SENDER = {
  id: EXTENSION.id,
  url: `${EXTENSION.origin}sidepanel.html?tab=3`,
  origin: 'chrome-extension://webmcp-agent-test-id',
};
const FRAME = { tabId: 3, frameId: 0, url: 'https://shop.test/', origin: 'https://shop.test' };
const TOOL = { name: 'search', description: 'Search products', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };

/** What happened between a call's start and its answer, as the adapter saw it. */
interface CallSpan {
  /** The types of the asks the host sent the background (on the router's line). */
  messages: string[];
  /** Storage reads. */
  reads: number;
}

/** The outcome of one measured run. */
interface ToolCallCost {
  spans: CallSpan[];
  /** How often the host looked at the tab's tools (RouterClient.getTools) within each call. */
  looks: number[];
  /** The panel's last snapshot of the tab, to check the run ended as it should. */
  final: TabSnapshot;
}

/** A storage area that counts its reads. */
function countingArea(): StorageArea & { reads: number } {
  const area = createMemoryStorageArea();
  const counted = {
    ...area,
    reads: 0,
    get: (keys: string[]) => {
      counted.reads++;
      return area.get(keys);
    },
  };
  return counted;
}

/**
 * The model stand-in: one run that calls `search` `times` times, then answers. `measure` wraps each call, so that
 * what is counted is the call's own cost (the run also reads its adapter's settings and saves the conversation).
 */
function callingAdapter(times: number, measure: (call: () => Promise<unknown>) => Promise<void>): AgentAdapter {
  return {
    id: 'scripted',
    label: 'Scripted',
    async *run(req: AgentRunRequest): AsyncGenerator<AgentStreamPart> {
      for (let i = 0; i < times; i++) {
        yield { type: 'message-start', messageId: `m${i}` };
        yield { type: 'tool-call', messageId: `m${i}`, id: `c${i}`, name: 'search', input: { q: `lamp ${i}` } };
        let output: Awaited<ReturnType<AgentRunRequest['callTool']>> | undefined;
        await measure(async () => {
          output = await req.callTool({ id: `c${i}`, name: 'search', input: { q: `lamp ${i}` } });
        });
        yield { type: 'tool-result', id: `c${i}`, output: output! };
      }
      yield { type: 'message-start', messageId: 'end' };
      yield { type: 'text-delta', messageId: 'end', delta: 'Done.' };
      yield { type: 'finish', reason: 'stop' };
    },
  };
}

const until = async <T>(read: () => T | undefined | false, what: string): Promise<T> => {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const value = read();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** A panel binds to a tab with one read-only tool and sends a message; the model calls the tool `calls` times. */
export async function measureToolCallCost(calls: number): Promise<ToolCallCost> {
  // The router in the "service worker", the host's client in the "offscreen document", and the line between them
  // (router-line-stand.ts). Its Ports deliver in microtasks: what a call spans is then the call's own work, not the
  // run's saves on timers that a busy machine lets land inside it. Every ask the host sends is recorded as it goes.
  const sent: string[] = [];
  let stand: ReturnType<typeof createRouterLineStand> | undefined;
  const router = createToolRouter({
    store: createMemoryStorageArea(),
    setBadge: () => {},
    notifyHost: (message) => stand?.notifyHost(message),
    // The frame stand-in: answers a call with a result and its report, as frame-connector.ts does.
    sendToFrame: async (_tabId, _frameId, message: BackgroundToFrameMessage) => {
      const call = frameCallIn(message);
      if (!call) return undefined;
      return call.answer({
        kind: 'output',
        output: { content: [{ type: 'text', text: `3 lamps for ${(call.input as { q: string }).q}` }] },
        report: { url: FRAME.url, origin: FRAME.origin, page: { url: FRAME.url, title: 'Shop' }, tools: [TOOL] },
      });
    },
  });
  router.handleFrameMessage({ type: 'frame/ready', url: FRAME.url }, FRAME);
  router.handleFrameMessage(
    { type: 'frame/tools', report: { url: FRAME.url, origin: FRAME.origin, page: { url: FRAME.url, title: 'Shop' }, tools: [TOOL] } },
    FRAME,
  );

  stand = createRouterLineStand({
    handlers: () => router.hostHandlers(),
    microtasks: true,
    onHostSend: (message) => {
      const m = message as { line?: string; type?: string };
      if (m.line === 'ask' && typeof m.type === 'string') sent.push(m.type);
    },
  });
  const client = stand.client;
  let looked = 0;
  const bridge: typeof client = {
    ...client,
    getTools: (tabId) => {
      looked++;
      return client.getTools(tabId);
    },
  };
  const local = countingArea();
  await local.set({ 'settings.mode': 'local' });
  const spans: CallSpan[] = [];
  const looks: number[] = [];
  const connectListeners = new Set<(port: HostPort) => void>();
  wireAgentHost({
    storage: { local, session: createMemoryStorageArea() },
    onConnect: { addListener: (l) => void connectListeners.add(l) },
    extension: EXTENSION,
    bridge,
    fetch: globalThis.fetch,
    createLocalAdapter: () =>
      callingAdapter(calls, async (call) => {
        const [messagesBefore, readsBefore, looksBefore] = [sent.length, local.reads, looked];
        await call();
        spans.push({ messages: sent.slice(messagesBefore), reads: local.reads - readsBefore });
        looks.push(looked - looksBefore);
      }),
  });

  const events: HostEvent[] = [];
  const panel = createAgentClient({
    connect: () => {
      const pair = createAgentPortPair(AGENT_PORT_NAME, PANEL_SENDER);
      for (const l of connectListeners) l(pair.host);
      return pair.panel;
    },
    retryDelayMs: 1,
  });
  panel.subscribe((e) => events.push(e));
  panel.send({ type: 'panel/bind', tabId: FRAME.tabId });
  const latest = () => (events.filter((e) => e.type === 'panel/tab').at(-1) as { snapshot: TabSnapshot } | undefined)?.snapshot;
  await until(() => latest()?.tools.length, 'the tab tools');
  panel.send({ type: 'panel/send', tabId: FRAME.tabId, text: 'find lamps', site: FRAME.origin });
  const final = await until(() => (latest()?.lastRun ? latest() : undefined), 'the run to end');
  panel.close();
  return { spans, looks, final };
}
