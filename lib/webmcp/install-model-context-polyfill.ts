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

/** The fields of a registered tool that getTools() reports. */
interface PolyfillToolInfo {
  name: string;
  title: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  annotations?: Record<string, boolean>;
  origin: string;
  window: Window;
}

interface Registered {
  name: string;
  title: string;
  description: string;
  schemaJson?: string;
  annotations?: Record<string, boolean>;
  execute: (input: unknown, client: { signal: AbortSignal }) => unknown;
  signal?: AbortSignal;
}

const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** The polyfill's ModelContext. Exported for the MAIN-world wiring and for tests. */
export class PolyfillModelContext extends EventTarget {
  readonly #tools = new Map<string, Registered>();
  readonly #win: Window;
  #ontoolchange: ((event: Event) => void) | null = null;

  constructor(win: Window) {
    super();
    this.#win = win;
  }

  get ontoolchange(): ((event: Event) => void) | null {
    return this.#ontoolchange;
  }

  set ontoolchange(handler: ((event: Event) => void) | null) {
    if (this.#ontoolchange) this.removeEventListener('toolchange', this.#ontoolchange);
    this.#ontoolchange = typeof handler === 'function' ? handler : null;
    if (this.#ontoolchange) this.addEventListener('toolchange', this.#ontoolchange);
  }

  async registerTool(tool: unknown, options: { signal?: AbortSignal } = {}): Promise<void> {
    if (typeof tool !== 'object' || tool === null) throw new TypeError('registerTool(tool) requires a tool object');
    const t = tool as Record<string, unknown>;
    const name = String(t.name ?? '');
    if (!NAME_PATTERN.test(name)) throw new DOMException('Invalid tool name', 'InvalidStateError');
    if (typeof t.description !== 'string' || t.description === '') {
      throw new DOMException('Tool "description" must be a non-empty string', 'InvalidStateError');
    }
    if (typeof t.execute !== 'function') throw new TypeError('Tool "execute" must be a function');
    if (this.#tools.has(name)) throw new DOMException(`Tool already registered: ${name}`, 'InvalidStateError');
    // Like Chromium: the schema is serialised at registration, so a cyclic one throws here, for the page to see.
    const schemaJson = t.inputSchema === undefined ? undefined : JSON.stringify(t.inputSchema);
    const signal = options?.signal;
    if (signal?.aborted) return;
    const execute = t.execute as Registered['execute'];
    const registered: Registered = {
      name,
      title: typeof t.title === 'string' ? t.title : '',
      description: t.description,
      schemaJson,
      annotations: readAnnotations(t.annotations),
      execute: (input, client) => Reflect.apply(execute, undefined, [input, client]),
      signal,
    };
    this.#tools.set(name, registered);
    signal?.addEventListener(
      'abort',
      () => {
        if (this.#tools.get(name) !== registered) return;
        this.#tools.delete(name);
        this.#changed();
      },
      { once: true },
    );
    this.#changed();
  }

  async getTools(): Promise<PolyfillToolInfo[]> {
    return [...this.#tools.values()]
      .map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        ...(tool.schemaJson === undefined ? {} : { inputSchema: JSON.parse(tool.schemaJson) }),
        ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
        origin: this.#win.location.origin,
        window: this.#win,
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async executeTool(tool: unknown, input: unknown, options: { signal?: AbortSignal } = {}): Promise<string | null> {
    const name = typeof tool === 'object' && tool !== null ? String((tool as { name?: unknown }).name) : String(tool);
    const registered = this.#tools.get(name);
    if (!registered) throw new DOMException(`Tool not found: ${name}`, 'UnknownError');
    let args = input;
    if (typeof args === 'string') {
      try {
        args = JSON.parse(args);
      } catch {
        throw new TypeError('Failed to parse input arguments');
      }
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new TypeError("Failed to execute 'executeTool' on 'ModelContext': invalid input object: value is not an object");
    }
    const outer = options?.signal;
    outer?.throwIfAborted();
    const controller = new AbortController();
    const onAbort = () => {
      controller.abort(outer?.reason);
      this.dispatchEvent(Object.assign(new Event('toolcancel'), { toolName: name }));
    };
    outer?.addEventListener('abort', onAbort, { once: true });
    this.#win.dispatchEvent(Object.assign(new Event('toolactivated'), { toolName: name }));
    try {
      const value = await new Promise<unknown>((resolve, reject) => {
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
        Promise.resolve()
          .then(() => registered.execute(args, { signal: controller.signal }))
          .then(resolve, (error) =>
            reject(
              controller.signal.aborted
                ? controller.signal.reason
                : // The page may throw anything (a Proxy, an object without a prototype): describing it never throws,
                  // or this handler would fail unseen and the call would never settle.
                  new DOMException(`Tool was executed but the invocation failed: ${thrownMessage(error)}`, 'UnknownError'),
            ),
          );
      });
      return serializeResult(value);
    } finally {
      outer?.removeEventListener('abort', onAbort);
    }
  }

  #changed(): void {
    // Batched like Chromium: one toolchange per task, after the registration settled.
    setTimeout(() => this.dispatchEvent(new Event('toolchange')), 0);
  }
}

/** The value that marks a call that navigated the page (executeTool resolves null). */
export const NAVIGATED = Symbol('navigated');

function serializeResult(value: unknown): string | null {
  if (value === NAVIGATED) return null;
  if (typeof value === 'string') return value;
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
    try {
      const json = JSON.stringify(value);
      if (json !== undefined) return json;
    } catch {
      // Not JSON: described below.
    }
  }
  try {
    return String(value);
  } catch {
    return thrownMessage(value);
  }
}

function readAnnotations(value: unknown): Record<string, boolean> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const out: Record<string, boolean> = {};
  for (const key of ['readOnlyHint', 'untrustedContentHint', 'consequentialHint']) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = Boolean(v);
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
