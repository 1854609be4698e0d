/**
 * MAIN-world side of the bridge: lists and runs the tools of whatever implementation the page is using now.
 *
 * Tools registered on the browser's native `document.modelContext` are not reported here: the isolated script
 * reads those directly. Nor is Firefox's own `navigator.modelContext` read: the page-world stub mirrors its
 * registrations into the polyfill (mirror-firefox-model-context.ts). Reported are the polyfill's tools and those of any implementation the page put in
 * place of `document.modelContext` or on `navigator.modelContext` (checked on every request and at load, since a
 * page can replace it at any time). Everything read from those objects is copied into plain data (schemas as JSON text).
 */
import { thrownMessage } from '../page-data/describe-thrown';
import { adaptNamedToolContext } from './adapt-named-tool-context';
import { createExposureLink, type ExposureLink } from './exposure-link';
import { legacyRegistrations } from './legacy-registrations';
import { declarativeFormTools } from './declarative-form-tools';
import { type PageRequest, type PageToolInfo, servePageChannel } from '../webmcp/page-channel';
import { readAnnotationFlags } from '../webmcp/read-annotation-flags';
import { readPageField } from '../webmcp/read-page-field';
import { MAX_TOOL_BYTES } from '../messaging/router-messages';
import { jsonSizeUpTo } from '../shared/json-size-up-to';
import { toolOwnerWindow } from '../webmcp/tool-owner-window';
import { cancelResume, linkContinuations, markAgentCall } from './tool-continuations';

type ModelContextLike = EventTarget & {
  getTools?: () => Promise<unknown[]> | unknown[];
  executeTool?: (tool: unknown, input: unknown, options?: { signal?: AbortSignal }) => Promise<unknown>;
};

interface PageToolSources {
  /** The extension's polyfill, when it was installed. */
  polyfill?: ModelContextLike;
  /** The browser's own modelContext, when there is one (its tools are read from the isolated world). */
  native?: unknown;
  /** Hands the polyfill the background's answer: may this document use tools (the `tools` permissions policy)? */
  settlePolicy?: (allowed: boolean) => void;
  /** The polyfill's side of tools exposed across origins (install-model-context-polyfill.ts, linkExposure). */
  exposure?: PolyfillExposure;
}

/** What the polyfill offers the relay of tools exposed across origins. */
export interface PolyfillExposure {
  link(link: ExposureLink): void;
  changed(): void;
  run(name: string, caller: string, inputJson: string, signal: AbortSignal): Promise<string | null>;
}

/** Starts answering the isolated script; `prove` announces the channel with a key (lib/webmcp/page-channel.ts). */
export function servePageTools(win: Window, sources: PageToolSources): { prove: (key: string) => void } {
  const watched = new WeakSet<object>();
  const legacy = legacyRegistrations(win);
  const byName = new Map<string, { context: ModelContextLike; tool: unknown }>();
  let channel: ReturnType<typeof servePageChannel> | undefined;
  const notify = () => channel?.notify();
  // A form's tool is listed (at its toolchange) before its registration settles and the record names it a form's.
  const forms = declarativeFormTools(win);
  forms.onChange(notify);

  const contexts = (): ModelContextLike[] => {
    const list: ModelContextLike[] = [];
    let current: unknown;
    try {
      // The extension's own look, like the one at navigator.modelContext below: not the page's (legacy-registrations.ts).
      current = legacy.unnoticed(() => (win.document as unknown as { modelContext?: unknown }).modelContext);
    } catch {
      current = undefined;
    }
    for (const candidate of [current, sources.polyfill, pageNavigatorContext()]) {
      if (typeof candidate !== 'object' || candidate === null || candidate === sources.native) continue;
      if (list.includes(candidate as ModelContextLike)) continue;
      list.push(candidate as ModelContextLike);
      if (!watched.has(candidate)) {
        watched.add(candidate);
        try {
          (candidate as EventTarget).addEventListener('toolchange', notify);
        } catch {
          // An implementation without events is still read on every request.
        }
      }
    }
    return list;
  };

  // A page's own `navigator.modelContext` (@mcp-b/global 1.x) that lists with listTools() and runs by name is read
  // through an adapter, made once per object so that it is watched once (issue 23, item 10).
  const adapted = new WeakMap<object, ModelContextLike>();
  const pageNavigatorContext = (): unknown => {
    let candidate: unknown;
    try {
      candidate = legacy.unnoticed(() => (win.navigator as unknown as { modelContext?: unknown }).modelContext);
    } catch {
      return undefined;
    }
    if (typeof candidate !== 'object' || candidate === null || isBrowserModelContext(win, candidate)) return undefined;
    const known = adapted.get(candidate);
    if (known) return known;
    const reader = adaptNamedToolContext(candidate, notify);
    if (!reader) return candidate;
    const context = Object.assign(new EventTarget(), reader);
    adapted.set(candidate, context);
    return context;
  };

  const list = async (): Promise<PageToolInfo[]> => {
    byName.clear();
    const out: PageToolInfo[] = [];
    for (const context of contexts()) {
      let tools: unknown[] = [];
      try {
        const got = await context.getTools?.();
        tools = Array.isArray(got) ? got : [];
      } catch {
        continue;
      }
      for (const tool of tools) {
        // The polyfill's getTools() also lists the same-origin frames' tools, as native's: their frames report them.
        // `window` on Chromium 156's entries, `source` on Chrome 160's Tool objects.
        const owner = toolOwnerWindow(tool);
        if (owner !== undefined && owner !== win) continue;
        const info = toInfo(tool);
        if (!info || byName.has(info.name)) continue;
        // Only the polyfill's tools: their registrations went through the legacy shim, which noted the API.
        const api = context === sources.polyfill ? legacy.of(info.name) : undefined;
        if (api) info.legacyApi = api;
        const form = context === sources.polyfill ? forms.get(info.name) : undefined;
        if (form) info.form = form.hasAttribute('toolautosubmit') ? 'submits' : 'waits';
        byName.set(info.name, { context, tool });
        out.push(info);
      }
    }
    return out;
  };

  const call = async (name: string, input: unknown, signal: AbortSignal, callId: unknown): Promise<string | null> => {
    // The agent's call: its tool may ask for a continuation token (tool-continuations.ts).
    if (typeof callId === 'string') markAgentCall(signal, callId.slice(0, 100));
    if (!byName.has(name)) await list();
    const entry = byName.get(name);
    if (!entry?.context.executeTool) throw new DOMException(`Tool not found: ${name}`, 'NotFoundError');
    // A call stopped while the tools were read is not started: a WebMCP implementation starts a tool even for an
    // already-aborted signal, as native's does (docs/webmcp-conformance.md), and the person's Stop came first.
    signal.throwIfAborted();
    let result: unknown;
    try {
      result = await entry.context.executeTool(entry.tool, input, { signal });
    } catch (error) {
      // Chrome before 155 wanted the input as JSON text.
      if (!thrownMessage(error).startsWith('Failed to parse input')) throw error;
      signal.throwIfAborted();
      result = await entry.context.executeTool(entry.tool, JSON.stringify(input), { signal });
    }
    if (result === null) return null;
    if (typeof result === 'string') return result;
    try {
      return JSON.stringify(result) ?? String(result);
    } catch {
      return thrownMessage(result);
    }
  };

  const handle = async (request: PageRequest, signal: AbortSignal): Promise<unknown> => {
    if (request.op === 'ping') return 'pong';
    if (request.op === 'list') return list();
    if (request.op === 'call') return call(String(request.name), request.input, signal, request.callId);
    if (request.op === 'run-exposed') {
      // The background checked the caller's origin against what this document exposed; the polyfill checks again.
      if (!sources.exposure) throw new DOMException('No tools are exposed here', 'NotFoundError');
      return sources.exposure.run(String(request.name), String(request.caller), String(request.input), signal);
    }
    if (request.op === 'cancel-resume') {
      // Also open to a page that took the announced port: it can only stop its own document's callbacks.
      cancelResume(win, String(request.token));
      return true;
    }
    if (request.op === 'exposed-changed') {
      sources.exposure?.changed();
      return true;
    }
    if (request.op === 'policy') {
      // Also open to a page that took the announced port: it can only answer for its own document, whose own
      // realm it already holds (docs/security.md §4); the agent's view of the frame is the background's own check.
      sources.settlePolicy?.(request.allowed === true);
      return true;
    }
    throw new Error('unknown request');
  };
  channel = servePageChannel(win, handle);
  linkContinuations(win, channel.ask);
  sources.exposure?.link(createExposureLink(channel.ask));
  // A page may swap document.modelContext for its own implementation while it loads.
  const recheck = () => {
    contexts();
    notify();
  };
  win.addEventListener('DOMContentLoaded', recheck, { once: true });
  win.addEventListener('load', () => setTimeout(recheck, 500), { once: true });
  return { prove: channel.prove };
}

/**
 * Whether `candidate` is the browser's own `ModelContext` (Firefox's `navigator.modelContext`): its registrations
 * reach the polyfill through the page-world stub's mirror (mirror-firefox-model-context.ts), so it is not read
 * again here. Its `getTools()` (Firefox's testing preference) would list them a second time, and it runs nothing the
 * way this channel calls (`invokeTool`, not `executeTool`). A page's own object dressed in that prototype is left
 * out with it: that page hides only its own tools.
 */
function isBrowserModelContext(win: Window, candidate: object): boolean {
  const browser = (win as unknown as { ModelContext?: { prototype?: unknown } }).ModelContext?.prototype;
  try {
    return browser !== undefined && Object.getPrototypeOf(candidate) === browser;
  } catch {
    return false;
  }
}

function toInfo(tool: unknown): PageToolInfo | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const read = (key: string) => readPageField(tool, key);
  const name = read('name');
  if (typeof name !== 'string' || name === '') return undefined;
  // One hostile entry (a description that cannot be turned into text) must not take the frame's other tools down.
  const description = read('description');
  const info: PageToolInfo = { name, description: typeof description === 'string' ? description : '' };
  const title = read('title');
  if (typeof title === 'string') info.title = title;
  // An empty member is missing on Chromium 156's entries and null on Chrome 160's Tool objects: no schema either way.
  const schema = read('inputSchema');
  // Megabytes of description or schema are not copied to the isolated world on every list: the tool is left out.
  if (info.description.length > MAX_TOOL_BYTES || jsonSizeUpTo(schema, MAX_TOOL_BYTES) === Number.POSITIVE_INFINITY) {
    return { name, description: '', oversized: true };
  }
  if (typeof schema === 'string') info.inputSchemaJson = schema;
  else if (schema !== undefined && schema !== null) {
    try {
      info.inputSchemaJson = JSON.stringify(schema);
    } catch (error) {
      info.inputSchemaError = `inputSchema is not JSON: ${thrownMessage(error, 200)}`;
    }
  }
  const outputSchema = read('outputSchema');
  if (typeof outputSchema === 'string') info.outputSchemaJson = outputSchema;
  else if (outputSchema !== undefined && outputSchema !== null) {
    try {
      info.outputSchemaJson = JSON.stringify(outputSchema);
    } catch {
      // An outputSchema is shown, never needed to run the tool: one that is not JSON is left out.
    }
  }
  const annotations = read('annotations');
  // Under the names pages register with, whichever names the implementation lists them by (read-annotation-flags.ts).
  if (typeof annotations === 'object' && annotations !== null) info.annotations = { ...readAnnotationFlags(annotations).annotations };
  return info;
}
