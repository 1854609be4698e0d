/**
 * One tab's tools as its session sees them (create-tab-session.ts): the router's latest snapshot (pushed, so reading
 * it costs no round trip), who each tool is for the confirmation policy, the page agent for the tab's page, and the
 * wait for a tool the page does not offer yet. The view subscribes to the bridge once and looks at the tab's tools
 * once per change it is told of; a tool call reads the view (current) and never looks itself.
 */
import { isDebuggingTool } from '../agent/is-debugging-tool';
import { indexTools } from '../agent/rank-tools';
import { isDelegateToolName, reachableToolNames } from '../agent/select-tools';
import { summarizeOutputSchema } from '../agent/summarize-output-schema';
import type { PageContext, ToolDescriptor, WebAgent } from '../agent/types';
import type { TabToolEntry, TabToolSnapshot } from '../messaging/tab-tool-snapshot';
import type { PanelTool } from '../messaging/agent-messages';
import { webOriginOf } from '../shared/web-origin-of';
import type { HostSettingsPort, HostRouterClient } from './agent-host-deps';
import type { ToolIdentity } from './create-confirmation-flow';

/**
 * How long a call to a tool the page does not offer waits for the page to offer it. Framework-built pages register
 * a new route's tools in effects 30–500 ms after the call that changed the route (up to about 460 ms with the CPU
 * slowed 4×, issue 17); 1.5 s covers that three times over, and is short enough that a name the model made up
 * costs little.
 */
export const UNKNOWN_TOOL_WAIT_MS = 1_500;

interface TabToolsDeps {
  tabId: number;
  bridge: HostRouterClient;
  settings: Pick<HostSettingsPort, 'siteAgentFor'>;
  /** Called after every refresh. */
  onChange: () => void;
  /** What a change the bridge tells of waits for before it is looked at (the session's stored conversation). */
  after?: Promise<unknown>;
}

/** What the session reads of its tab's tools. */
export interface TabTools {
  /** Reads the bridge's snapshot of the tab (a copy the router pushed: no round trip on Chrome). */
  refresh(): Promise<void>;
  /**
   * Resolves once the view shows the latest the bridge told of: the looks under way (a change the bridge told of,
   * a refresh) have ended. Looks itself only when the tab was never read. A call reads its tools after this.
   */
  current(): Promise<void>;
  /** Stops following the bridge (the tab closed). */
  close(): void;
  /** Whether a snapshot (or the knowledge that the page has no tools) has come. */
  known(): boolean;
  page(): PageContext | undefined;
  /** Whether the router says the tab's page crashed (TabToolSnapshot.crashed). */
  crashed(): boolean;
  /** The page agent for the tab's page (site profiles). */
  agent(): WebAgent | undefined;
  /** Tools the router left out (per-tab caps, frames not delegated), for the panel's note. */
  dropped(): TabToolSnapshot['dropped'];
  /** What the router refused of the page's work (lib/background/page-limits.ts), for the panel's notice. */
  limits(): TabToolSnapshot['limits'];
  /** The tool of this model-facing name, whatever the page agent allows. */
  find(name: string): TabToolEntry | undefined;
  /** The tool of this name if the page agent offers it. */
  offered(name: string): TabToolEntry | undefined;
  /** Who a tool is for the confirmation policy. */
  identity(name: string): ToolIdentity | undefined;
  names(): string[];
  all(): TabToolEntry[];
  /** The tools the agent offers the model, as the model sees them: never a debugging tool (is-debugging-tool.ts). */
  forModel(): ToolDescriptor[];
  /** The tools the agent offers, as the inspector shows them, debugging tools included (the person runs those by hand). */
  forPanel(): PanelTool[];
  /** Waits until the page offers a tool of this name, at most UNKNOWN_TOOL_WAIT_MS or until `signal` aborts. */
  waitFor(name: string, signal: AbortSignal): Promise<TabToolEntry | undefined>;
  /**
   * Waits until the router names the tab's top page (a page that is loading), at most UNKNOWN_TOOL_WAIT_MS or until
   * `signal` aborts; at once when it names one now.
   */
  waitForPage(signal: AbortSignal): Promise<void>;
}

/** Creates the tab's tool view. */
export function createTabTools(deps: TabToolsDeps): TabTools {
  const { tabId, bridge, settings } = deps;
  let tools: { tools: TabToolEntry[]; page?: PageContext } = { tools: [] };
  // Where each model-facing name lives: the policy judges a frame's tool by the frame's origin, not the top page's.
  let identities = new Map<string, ToolIdentity>();
  let dropped: TabToolSnapshot['dropped'];
  let limits: TabToolSnapshot['limits'];
  let toolsKnown = false;
  let crashed = false;
  let agent: WebAgent | undefined;
  /** Woken after every refresh: calls waiting for a tool the page does not offer yet. */
  const toolWaiters = new Set<() => void>();

  const refreshTools = async () => {
    try {
      const fresh = await bridge.getTools(tabId);
      // delegate_to_* names are the extension's (sub-agents): a page tool of that name never runs under it.
      const read = { tools: fresh.tools.filter((t) => !isDelegateToolName(t.name)), page: fresh.page };
      tools = read;
      // The ranker learns the tools' words now rather than on the first request over them (issue 49).
      indexTools(read.tools);
      identities = new Map(fresh.tools.map((t) => [t.name, identityOf(t)]));
      dropped = fresh.dropped;
      limits = fresh.limits;
      crashed = fresh.crashed === true;
      toolsKnown = true;
      // The profile of the page the router names, and of no other: none while it names none, and a read that a
      // newer one overtook meanwhile does not put its page's profile on the newer page.
      const profile = read.page?.url ? await settings.siteAgentFor(read.page.url) : undefined;
      if (tools === read) agent = profile;
    } catch {
      // The tab could not be read: it offers nothing known, and which page it shows is not known either (a site
      // not known is another site, docs/security.md), so nothing from before stands in for it.
      tools = { tools: [] };
      identities = new Map();
      dropped = undefined;
      limits = undefined;
      crashed = false;
      agent = undefined;
      toolsKnown = true;
    }
    deps.onChange();
    for (const wake of [...toolWaiters]) wake();
  };

  /** The looks under way, each tracked until it ends: current() waits for them instead of looking again. */
  const looking = new Set<Promise<void>>();
  const look = (after?: Promise<unknown>): Promise<void> => {
    const done: Promise<void> = (after ? after.then(refreshTools) : refreshTools()).finally(() => looking.delete(done));
    looking.add(done);
    return done;
  };
  // The view's one subscription: each change of this tab is looked at once, as soon as it is told.
  const unsubscribe = bridge.subscribe((changed) => {
    if (changed === tabId) void look(deps.after).catch(() => undefined);
  });

  /**
   * Waits, refresh after refresh, until `found` gives something, at most UNKNOWN_TOOL_WAIT_MS or until `signal`
   * aborts; the first look comes after the next refresh (the caller has just looked).
   */
  const waitUntil = async <T>(found: () => T | undefined, signal: AbortSignal): Promise<T | undefined> => {
    const deadline = Date.now() + UNKNOWN_TOOL_WAIT_MS;
    let value: T | undefined;
    while (value === undefined && !signal.aborted && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          toolWaiters.delete(wake);
          signal.removeEventListener('abort', wake);
          resolve();
        };
        const timer = setTimeout(wake, deadline - Date.now());
        toolWaiters.add(wake);
        signal.addEventListener('abort', wake);
      });
      value = found();
    }
    return value;
  };

  return {
    refresh: () => look(),
    async current() {
      if (!toolsKnown && looking.size === 0) await look();
      // The looks under way now, not those that start meanwhile: a page whose tools keep changing cannot hold a call.
      await Promise.all([...looking]);
    },
    close: () => void unsubscribe(),
    known: () => toolsKnown,
    page: () => tools.page,
    crashed: () => crashed,
    agent: () => agent,
    dropped: () => dropped,
    limits: () => limits,
    find: (name) => tools.tools.find((t) => t.name === name),
    offered: (name) => filterTools(tools.tools, agent).find((t) => t.name === name),
    identity: (name) => identities.get(name),
    names: () => tools.tools.map((t) => t.name),
    all: () => tools.tools,
    forModel: () =>
      filterTools(tools.tools, agent)
        .filter((t) => !isDebuggingTool(t))
        .map(toDescriptor),
    forPanel: () => filterTools(tools.tools, agent).map(toPanelTool),
    waitFor: (name, signal) => waitUntil(() => tools.tools.find((t) => t.name === name), signal),
    waitForPage: async (signal) => {
      if (!tools.page?.url) await waitUntil(() => tools.page?.url || undefined, signal);
    },
  };
}

/** What the inspector shows of a tool: the model's view plus where it lives. */
function toPanelTool(tool: TabToolEntry): PanelTool {
  return {
    ...toDescriptor(tool),
    originalName: tool.originalName,
    origin: tool.origin,
    frameId: tool.frameId,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.schemaError ? { schemaError: tool.schemaError } : {}),
    ...(tool.declarative ? { declarative: true } : {}),
    ...(tool.legacyApi ? { legacyApi: tool.legacyApi } : {}),
  };
}

/** What the model needs of a tool; where it lives in the page stays with the bridge. */
function toDescriptor(tool: TabToolEntry): ToolDescriptor {
  const returns = summarizeOutputSchema(tool.outputSchema);
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(returns ? { returns } : {}),
  };
}

function filterTools<T extends { name: string }>(tools: T[], agent: WebAgent | undefined): T[] {
  // The agent's tools and its sub-agents': each adapter narrows them to one agent's with selectTools.
  const allowed = reachableToolNames(agent);
  if (!allowed) return tools;
  return tools.filter((t) => allowed.has(t.name));
}

/** A tool's identity for the policy; a bridge that says nothing of frames means the top page. */
function identityOf(tool: ToolDescriptor & Partial<Pick<TabToolEntry, 'origin' | 'originalName'>>): ToolIdentity {
  // An opaque origin ("null", a sandboxed frame) stays as it is: it names no site, so no grant can match it.
  const origin = typeof tool.origin === 'string' ? (webOriginOf(tool.origin) ?? tool.origin) : undefined;
  return { originalName: tool.originalName ?? tool.name, ...(origin ? { origin } : {}) };
}
