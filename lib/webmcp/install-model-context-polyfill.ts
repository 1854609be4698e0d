/**
 * A spec-shaped `document.modelContext` for browsers without native WebMCP, installed by the MAIN-world script
 * at document_start (so it runs before page code). It follows what Chromium 156 ships behind
 * --enable-features=WebMCP: registerTool(tool, {signal}) (unregister = abort), getTools(), executeTool(tool,
 * input, {signal}) resolving to a string (JSON for objects) or null when the call navigated, and the events
 * toolchange, toolactivated, toolcancel. Unlike Chromium it also serves cross-origin frames: the extension,
 * not the embedding page, decides what the agent may call.
 *
 * Runs in the page's realm: it holds nothing secret and the page may replace or wrap any of it.
 */
import { thrownMessage } from '../page-data/describe-thrown';
import { defineToolEvents, type ToolEventClasses } from './define-tool-events';

/** A registered tool as getTools() reports it: a dictionary, so its keys come in code-point order, as native's. */
interface PolyfillToolInfo {
  annotations?: Record<string, boolean>;
  description: string;
  inputSchema?: Record<string, unknown>;
  name: string;
  origin: string;
  /** Chrome 159's member (docs/webmcp-conformance.md); Chromium 156 neither takes nor lists it. */
  outputSchema?: Record<string, unknown>;
  title: string;
  window: Window;
}

interface Registered {
  name: string;
  title: string;
  description: string;
  schemaJson?: string;
  outputSchemaJson?: string;
  annotations?: Record<string, boolean>;
  execute: (input: unknown, client: { signal: AbortSignal }) => unknown;
  signal?: AbortSignal;
}

const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** Native Chromium's words for an unknown tool or a tool of another document (it says no more than this). */
const UNKNOWN_TOOL_MESSAGE = 'The operation failed for an unknown transient reason (e.g. out of memory).';

/** Native Chromium's words for a tool that threw, or whose result cannot be serialised. */
const INVOCATION_FAILED = 'Tool was executed but the invocation failed. For example, the script function threw an error';

/** The polyfill's ModelContext. Exported for the MAIN-world wiring and for tests. */
export class PolyfillModelContext extends EventTarget {
  readonly #tools = new Map<string, Registered>();
  readonly #win: Window & typeof globalThis;
  readonly #events: ToolEventClasses;
  readonly #handlers = new Map<string, ((event: Event) => void) | null>();

  constructor(win: Window) {
    super();
    this.#win = win as Window & typeof globalThis;
    this.#events = defineToolEvents(this.#win);
  }

  get ontoolchange(): ((event: Event) => void) | null {
    return this.#handler('toolchange');
  }

  set ontoolchange(handler: ((event: Event) => void) | null) {
    this.#setHandler('toolchange', handler);
  }

  get ontoolactivated(): ((event: Event) => void) | null {
    return this.#handler('toolactivated');
  }

  set ontoolactivated(handler: ((event: Event) => void) | null) {
    this.#setHandler('toolactivated', handler);
  }

  get ontoolcancel(): ((event: Event) => void) | null {
    return this.#handler('toolcancel');
  }

  set ontoolcancel(handler: ((event: Event) => void) | null) {
    this.#setHandler('toolcancel', handler);
  }

  registerTool(tool: unknown, options: { signal?: AbortSignal } = {}): Promise<void> {
    // WebIDL: argument and dictionary errors reject the returned promise (a promise-returning operation never throws).
    try {
      // biome-ignore lint/complexity/noArguments: WebIDL counts the arguments given, not the parameters declared.
      if (arguments.length === 0) throw new TypeError(failed('registerTool', '1 argument required, but only 0 present.'));
      const registered = this.#readTool(tool);
      const signal = options?.signal;
      if (signal?.aborted) return Promise.reject(signal.reason);
      return this.#register(registered, signal);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async getTools(): Promise<PolyfillToolInfo[]> {
    return [...this.#tools.values()]
      .map((tool) => ({
        ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
        description: tool.description,
        ...(tool.schemaJson === undefined ? {} : { inputSchema: JSON.parse(tool.schemaJson) }),
        name: tool.name,
        origin: this.#win.location.origin,
        ...(tool.outputSchemaJson === undefined ? {} : { outputSchema: JSON.parse(tool.outputSchemaJson) }),
        title: tool.title,
        window: this.#win,
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  executeTool(tool: unknown, input?: unknown, options: { signal?: AbortSignal } = {}): Promise<string | null> {
    try {
      const name = this.#toolNameOf(tool);
      const registered = this.#tools.get(name);
      if (!registered) throw new DOMException(UNKNOWN_TOOL_MESSAGE, 'UnknownError');
      const args = toolInput(input);
      return this.#run(registered, args, options?.signal);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The tool dictionary as native reads it: required members in code-point order, a real Window, this document's. */
  #toolNameOf(tool: unknown): string {
    if (typeof tool !== 'object' || tool === null) {
      throw new TypeError(failed('executeTool', "The provided value is not of type 'RegisteredTool'."));
    }
    const t = tool as Record<string, unknown>;
    for (const member of ['description', 'name', 'origin', 'window']) {
      if (t[member] === undefined) {
        throw new TypeError(
          failed('executeTool', `Failed to read the '${member}' property from 'RegisteredTool': Required member is undefined.`),
        );
      }
    }
    const win = t.window as { window?: unknown } | null;
    if (typeof win !== 'object' || win === null || win.window !== win) {
      throw new TypeError(
        failed('executeTool', "Failed to read the 'window' property from 'RegisteredTool': Failed to convert value to 'Window'."),
      );
    }
    // A tool of another document (or a made-up origin) is not this document's to run.
    if (win !== this.#win || String(t.origin) !== this.#win.location.origin) {
      throw new DOMException(UNKNOWN_TOOL_MESSAGE, 'UnknownError');
    }
    return String(t.name);
  }

  /** Reads a ModelContextTool dictionary the way WebIDL and native Chromium do, or throws what native throws. */
  #readTool(tool: unknown): Registered {
    if (typeof tool !== 'object' || tool === null) {
      throw new TypeError(failed('registerTool', "The provided value is not of type 'ModelContextTool'."));
    }
    const t = tool as Record<string, unknown>;
    // Dictionary members are read in code-point order, so the first missing required one is named.
    const description = t.description;
    const execute = t.execute;
    const name = t.name;
    for (const [member, value] of [
      ['description', description],
      ['execute', execute],
      ['name', name],
    ] as const) {
      if (value === undefined) {
        throw new TypeError(
          failed('registerTool', `Failed to read the '${member}' property from 'ModelContextTool': Required member is undefined.`),
        );
      }
    }
    if (typeof execute !== 'function') {
      throw new TypeError(
        failed('registerTool', "Failed to read the 'execute' property from 'ModelContextTool': The provided value is not a function."),
      );
    }
    const toolName = String(name);
    const title = t.title === undefined ? '' : toUSVString(String(t.title));
    if (!NAME_PATTERN.test(toolName)) throw new DOMException('Invalid tool name', 'InvalidStateError');
    if (String(description) === '') throw new DOMException('Description is required', 'InvalidStateError');
    if (this.#tools.has(toolName)) throw new DOMException('Duplicate tool name', 'InvalidStateError');
    // Like Chromium: the schema is serialised at registration, so a cyclic one rejects here, for the page to see.
    let schemaJson: string | undefined;
    if (t.inputSchema !== undefined) {
      try {
        schemaJson = JSON.stringify(t.inputSchema);
      } catch (error) {
        throw new TypeError(failed('registerTool', thrownMessage(error)));
      }
      if (schemaJson === undefined) throw new TypeError(failed('registerTool', 'invalid input schema: toJSON() returns undefined'));
    }
    // The outputSchema is kept the same way, so the page sees a cyclic one fail at registration too.
    let outputSchemaJson: string | undefined;
    if (t.outputSchema !== undefined) {
      try {
        outputSchemaJson = JSON.stringify(t.outputSchema);
      } catch (error) {
        throw new TypeError(failed('registerTool', thrownMessage(error)));
      }
      if (outputSchemaJson === undefined) throw new TypeError(failed('registerTool', 'invalid output schema: toJSON() returns undefined'));
    }
    return {
      name: toolName,
      title,
      description: String(description),
      schemaJson,
      ...(outputSchemaJson === undefined ? {} : { outputSchemaJson }),
      annotations: readAnnotations(t.annotations),
      execute: (input, client) => Reflect.apply(execute as Registered['execute'], undefined, [input, client]),
    };
  }

  #register(registered: Registered, signal: AbortSignal | undefined): Promise<void> {
    this.#tools.set(registered.name, { ...registered, signal });
    const stored = this.#tools.get(registered.name);
    signal?.addEventListener(
      'abort',
      () => {
        if (this.#tools.get(registered.name) !== stored) return;
        this.#tools.delete(registered.name);
        this.#changed();
      },
      { once: true },
    );
    // As native: toolchange is dispatched in a task, and the registration resolves after it.
    return new Promise((resolve) => {
      this.#win.setTimeout(() => {
        this.dispatchEvent(new this.#win.Event('toolchange'));
        this.#win.setTimeout(resolve, 0);
      }, 0);
    });
  }

  async #run(registered: Registered, args: unknown, outer: AbortSignal | undefined): Promise<string | null> {
    const name = registered.name;
    outer?.throwIfAborted();
    const controller = new AbortController();
    const onAbort = () => {
      controller.abort(outer?.reason);
      this.dispatchEvent(new this.#events.ToolCancelEvent('toolcancel', { toolName: name }));
    };
    outer?.addEventListener('abort', onAbort, { once: true });
    try {
      // As native: the tool starts in a later task, after executeTool has returned its promise.
      await new Promise((resolve) => this.#win.setTimeout(resolve, 0));
      controller.signal.throwIfAborted();
      const value = await new Promise<unknown>((resolve, reject) => {
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
        new Promise((started) => started(registered.execute(args, { signal: controller.signal }))).then(resolve, (error) =>
          reject(
            controller.signal.aborted
              ? controller.signal.reason
              : // The page may throw anything (a Proxy, an object without a prototype): describing it never throws,
                // or this handler would fail unseen and the call would never settle.
                new DOMException(`Tool was executed but the invocation failed: ${thrownMessage(error)}`, 'UnknownError'),
          ),
        );
        // As native: the tool starts first (a declarative form is filled, even submitted), and toolactivated follows
        // once the microtasks it queued have run; dispatched at this document's modelContext (not at the window).
        queueMicrotask(() => this.dispatchEvent(new this.#events.ToolActivatedEvent('toolactivated', { toolName: name })));
      });
      return serializeResult(value);
    } finally {
      outer?.removeEventListener('abort', onAbort);
    }
  }

  #handler(type: string): ((event: Event) => void) | null {
    return this.#handlers.get(type) ?? null;
  }

  #setHandler(type: string, handler: unknown): void {
    const old = this.#handlers.get(type);
    if (old) this.removeEventListener(type, old);
    const next = typeof handler === 'function' ? (handler as (event: Event) => void) : null;
    this.#handlers.set(type, next);
    if (next) this.addEventListener(type, next);
  }

  #changed(): void {
    // Batched like Chromium: one toolchange per task.
    this.#win.setTimeout(() => this.dispatchEvent(new this.#win.Event('toolchange')), 0);
  }
}

/** "Failed to execute 'op' on 'ModelContext': …", native's TypeError wording. */
function failed(operation: string, detail: string): string {
  return `Failed to execute '${operation}' on 'ModelContext': ${detail}`;
}

/**
 * executeTool's input as native takes it: missing or undefined is a fresh `{}`; anything else must be an object
 * (arrays are objects) that serialises to JSON; the tool gets a copy, as it would from another document.
 */
function toolInput(input: unknown): unknown {
  if (input === undefined) return {};
  if (typeof input !== 'object' || input === null) {
    throw new TypeError(failed('executeTool', 'invalid input object: value is not an object'));
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch (error) {
    throw new TypeError(failed('executeTool', `invalid input object: ${thrownMessage(error)}`));
  }
  if (json === undefined) throw new TypeError(failed('executeTool', 'invalid input object: toJSON() returns undefined'));
  return JSON.parse(json);
}

/** A USVString: each unpaired surrogate becomes U+FFFD, as WebIDL converts it. */
function toUSVString(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** The value that marks a call that navigated the page (executeTool resolves null). */
export const NAVIGATED = Symbol('navigated');

function serializeResult(value: unknown): string | null {
  if (value === NAVIGATED) return null;
  if (typeof value === 'string') return value;
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      // A result that cannot be serialised (a cycle, a BigInt inside): native rejects the call.
      throw new DOMException(INVOCATION_FAILED, 'UnknownError');
    }
    if (json !== undefined) return json;
  }
  try {
    return String(value);
  } catch {
    return thrownMessage(value);
  }
}

/** Annotations as native reports them once a page gives any: every known hint, false unless the page said true. */
function readAnnotations(value: unknown): Record<string, boolean> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const out: Record<string, boolean> = {};
  for (const key of ['consequentialHint', 'debugging', 'readOnlyHint', 'untrustedContentHint']) {
    out[key] = Boolean((value as Record<string, unknown>)[key]);
  }
  return out;
}

/** Document.prototype as this document sees it (where Chromium defines modelContext). */
function documentPrototypeOf(win: Window, doc: Document): object {
  const DocumentCtor = (win as unknown as { Document?: { prototype: object } }).Document;
  for (let proto = Object.getPrototypeOf(doc); proto; proto = Object.getPrototypeOf(proto)) {
    if (proto === DocumentCtor?.prototype) return proto;
  }
  return Object.getPrototypeOf(doc);
}

/**
 * Installs the polyfill when the document has no modelContext: a `Document.prototype.modelContext` getter (as
 * Chromium defines it; the deprecated `navigator.modelContext` alias comes with the legacy shim). Returns the installed context, or
 * undefined when a native one already exists.
 */
export function installModelContextPolyfill(win: Window): PolyfillModelContext | undefined {
  const doc = win.document;
  if ((doc as any).modelContext) return undefined;
  const context = new PolyfillModelContext(win);
  Object.defineProperty(documentPrototypeOf(win, doc), 'modelContext', {
    configurable: true,
    enumerable: true,
    get(this: Document) {
      return this === doc ? context : undefined;
    },
  });
  return context;
}
