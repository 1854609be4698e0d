/**
 * The tool router's test stand-ins (lib/background/create-tool-router.ts): session storage and frames cannot run in
 * Node, so an in-memory store and scripted frames take their place; the router itself is the real one. Shared by
 * the router's tests and the host's bridge client tests.
 */
import { vi } from 'vitest';
import type {
  BackgroundToFrameMessage,
  BackgroundToHostMessage,
  FrameCallRequest,
  FrameCallUpdate,
  FrameReport,
  FrameTool,
} from '../messaging/router-messages';
import type { AnswerContext } from '../messaging/create-request-line';
import { createToolRouter, type FrameSender, type ToolRouter } from '../background/create-tool-router';
import type { SessionStore, ToolRouterPorts } from '../background/tool-router-ports';
import { type FrameCallServer, serveFrameCalls } from '../isolated-world/serve-frame-calls';

/** chrome.storage.session cannot run in Node: an in-memory stand-in with the same get/set/remove contract. */
function createMockSessionStore(): SessionStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: async (keys) => Object.fromEntries(keys.filter((k) => data.has(k)).map((k) => [k, structuredClone(data.get(k))])),
    set: async (items) => {
      for (const [k, v] of Object.entries(items)) data.set(k, structuredClone(v));
    },
    remove: async (keys) => {
      for (const k of keys) data.delete(k);
    },
  };
}

export const tool = (name: string, extra: Partial<FrameTool> = {}): FrameTool => ({
  name,
  description: `${name} does things`,
  inputSchema: { type: 'object', properties: {} },
  ...extra,
});

export const report = (origin: string, tools: FrameTool[], page: Partial<FrameReport['page']> = {}): FrameReport => ({
  url: page.url ?? `${origin}/`,
  origin,
  page: { url: `${origin}/`, title: 'Shop', ...page },
  tools,
});

/**
 * The browser attests a sender; these tests mostly feed honest frames, whose attested URL and origin are the ones
 * their report claims. `sender` may override that (an attacker's claim differs from what the browser says).
 */
type TestSender = { tabId: number; frameId: number } & Partial<FrameSender>;
export type HonestRouter = Omit<ToolRouter, 'handleFrameMessage'> & {
  handleFrameMessage(m: unknown, s: TestSender): boolean;
  /** The last attested sender of each frame, by `${tabId}:${frameId}`. */
  senders: Map<string, FrameSender>;
};
export function withHonestSenders(router: ToolRouter): HonestRouter {
  const senders = new Map<string, FrameSender>();
  return Object.assign(Object.create(router) as ToolRouter, {
    senders,
    handleFrameMessage(message: unknown, sender: TestSender) {
      const claimed = (message as { report?: FrameReport; url?: string }) ?? {};
      const claimedUrl = [claimed.report?.url, claimed.url].find((u): u is string => typeof u === 'string');
      const url = sender.url ?? claimedUrl ?? 'http://a.test/';
      const attested = { origin: new URL(url).origin, url, ...sender };
      senders.set(`${sender.tabId}:${sender.frameId}`, attested);
      return router.handleFrameMessage(message, attested);
    },
  });
}

/**
 * A tab's frame tree for the delegation check: child frame id → its parent and its iframe's allow attribute. The
 * default: every frame is the top's child with allow="tools *" (a page that delegates tools to all its frames). A
 * frame with an `origin` has no bridge until the router loads one into every frame of the tab: it then announces
 * itself (frame/ready), as a frame with no tools of its own does.
 */
type FrameTree = Record<number, { parent: number; allow: string; src?: string; origin?: string }>;

/** Plays the frame finder (scripting.executeScript into every frame): the known frames, and the tree's others. */
function findFrames(router: HonestRouter, tree: FrameTree | undefined, tabId: number) {
  const known = [...router.senders.values()].filter((s) => s.tabId === tabId).map((s) => s.frameId);
  const bridgeless = Object.entries(tree ?? {})
    .filter(([id, place]) => place.origin !== undefined && !known.includes(Number(id)))
    .map(([id]) => Number(id));
  return [...known.map((frameId) => ({ frameId, hasConnector: true })), ...bridgeless.map((frameId) => ({ frameId, hasConnector: false }))];
}

/** Plays loading the bridge into a frame: a tree frame without one announces itself (frame/ready). */
function loadConnector(router: HonestRouter, tree: FrameTree | undefined, tabId: number, frameId: number): void {
  const origin = tree?.[frameId]?.origin;
  if (origin === undefined || router.senders.has(`${tabId}:${frameId}`)) return;
  router.handleFrameMessage({ type: 'frame/ready', url: `${origin}/` }, { tabId, frameId, url: `${origin}/` });
}

/** Plays the content scripts' side of the delegation check: offers tokens and has the children present them. */
function offerTokens(router: HonestRouter, tree: FrameTree | undefined, tabId: number, frameId: number) {
  const children = [...router.senders.values()].filter((s) => s.tabId === tabId && s.frameId !== 0);
  const offers = [];
  for (const child of children) {
    const place = tree ? tree[child.frameId] : { parent: 0, allow: 'tools *' };
    if (!place || place.parent !== frameId) continue;
    const token = `t-${Math.random()}`;
    offers.push({ token, allow: place.allow, src: place.src ?? child.url });
    setTimeout(() => router.handleFrameMessage({ type: 'frame/delegation-token', token }, child), 0);
  }
  return offers;
}

/** What a scripted frame gets: the router's messages, and a call as its call line hands it over. */
export type ScriptedFrameMessage = BackgroundToFrameMessage | ({ type: 'bridge/call' } & FrameCallRequest);
/** A scripted frame: answers what the router sends; a call comes with its line's context (its signal, its updates). */
type ScriptedFrame = (message: ScriptedFrameMessage, frameId: number, context?: AnswerContext<FrameCallUpdate>) => Promise<unknown>;

/**
 * tabs.sendMessage cannot run in Node: mock frames that answer with a scripted function, and record every message
 * they get. A call reaches the script through the frame's real end of its call line (serve-frame-calls.ts), so its
 * cancel, its updates and its answer cross the line as they do from a page; a call is recorded as
 * `{ type: 'bridge/call', ...request }`, the line's other messages as they are (`bridge/line`).
 */
export function setup(
  answer: ScriptedFrame = async () => undefined,
  tree?: FrameTree,
  /** More of the router's ports (time limits, the browser's word on a crashed tab). */
  more: Partial<ToolRouterPorts> = {},
) {
  const store = createMockSessionStore();
  const sent: { tabId: number; frameId: number; message: ScriptedFrameMessage }[] = [];
  /** Each frame's end of its call line, by `${tabId}:${frameId}`. */
  const frameLines = new Map<string, FrameCallServer>();
  const frameLine = (tabId: number, frameId: number) => {
    const key = `${tabId}:${frameId}`;
    let line = frameLines.get(key);
    if (!line) {
      line = serveFrameCalls(
        (request, context) => answer({ type: 'bridge/call', ...request }, frameId, context) as never,
        (message) => void router.handleFrameMessage({ type: 'frame/line', message }, { tabId, frameId }),
      );
      frameLines.set(key, line);
    }
    return line;
  };
  const badges: Record<number, string> = {};
  const hostMessages: BackgroundToHostMessage[] = [];
  const ports = {
    store,
    sendToFrame: async (tabId: number, frameId: number, message: BackgroundToFrameMessage) => {
      if (message.type === 'bridge/offer-delegation') return offerTokens(router, tree, tabId, frameId);
      if (message.type === 'bridge/line') {
        const line = message.message;
        const call = line.line === 'ask' && line.type === 'bridge/call' ? (line.request as FrameCallRequest) : undefined;
        sent.push({ tabId, frameId, message: call ? { type: 'bridge/call', ...call } : message });
        return frameLine(tabId, frameId).receive(line);
      }
      sent.push({ tabId, frameId, message });
      return answer(message, frameId);
    },
    setBadge: (tabId: number, text: string) => {
      badges[tabId] = text;
    },
    notifyHost: (message: BackgroundToHostMessage) => {
      hostMessages.push(message);
    },
    navigationTimeoutMs: 300,
    delegationWaitMs: 1_000,
    findFrames: async (tabId: number) => findFrames(router, tree, tabId),
    loadConnector: async (tabId: number, frames?: { frameId: number } | readonly { frameId: number }[]) => {
      const list = !frames ? [] : 'frameId' in frames ? [frames] : frames;
      for (const frame of list) loadConnector(router, tree, tabId, frame.frameId);
    },
    ...more,
  };
  const router: HonestRouter = withHonestSenders(createToolRouter(ports));
  return { router, store, sent, badges, hostMessages, ports };
}

export const settle = () => new Promise((r) => setTimeout(r, 10));
/** Waits for an expectation to hold (delegation checks take a few message round trips; the machine may be busy). */
export const until = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 5_000, interval: 10 });
