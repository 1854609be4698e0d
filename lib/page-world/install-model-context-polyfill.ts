/**
 * A spec-shaped `document.modelContext` for browsers without native WebMCP, installed by the MAIN-world script
 * at document_start (so it runs before page code). It follows what Chromium 156 ships behind
 * --enable-features=WebMCP: registerTool(tool, {signal}) (unregister = abort), getTools(), executeTool(tool,
 * input, {signal}) resolving to a string (JSON for objects) or null when the call navigated, and the events
 * toolchange, toolactivated, toolcancel. As native, getTools() lists the tools of every same-origin document of the
 * frame tree and executeTool() runs one in the document that registered it (see lib/page-world/frame-tree-peers.ts); the
 * extension's agent reads every frame, cross-origin ones too, through each frame's own bridge, and decides itself
 * what the agent may call.
 *
 * Runs in the page's realm: it holds nothing secret and the page may replace or wrap any of it.
 */
import { defineToolEvents, type ToolEventClasses } from './define-tool-events';
import { failedToExecute } from './failed-to-execute';
import {
  type FrameTree,
  frameTreePeers,
  listFrameTreeTools,
  notifyFrameTree,
  offerPeer,
  originOf,
  type Peer,
  runInPeer,
} from './frame-tree-peers';
import type { ExposureLink } from './exposure-link';
import { exposedOrigins, exposedToolsOf, runOtherOriginTool, withExposedTools } from './exposed-tools';
import { inactiveError, isInactive } from './inactive-document';
import { isPotentiallyTrustworthyUrl } from './is-potentially-trustworthy-url';
import { legacyRegistrations } from './legacy-registrations';
import type { PolyfillToolInfo } from './polyfill-tool-info';
import { abortedGetterOf, readAbortSignalMember } from './read-abort-signal-member';
import { readDictionaryArgument } from './read-dictionary-argument';
import { type CheckedTool, checkModelContextTool, readModelContextTool } from './read-model-context-tool';
import { type RegisteredToolRef, readRegisteredTool } from './read-registered-tool';
import { readToolInputJson } from './read-tool-input-json';
import { readUSVStringSequence } from './read-usv-string-sequence';
import { readToolOrigin } from './read-tool-origin';
import { runToolCall } from './run-tool-call';
import { sameOriginAncestry } from '../webmcp/same-origin-ancestry';
import { serializeToolResult } from './serialize-tool-result';
import { resumeToolCall } from './tool-continuations';
import { unknownToolError } from './unknown-tool-error';

/** A tool this document registered, with its registration's signal and the origins it is exposed to. */
interface Registered extends CheckedTool {
  signal?: AbortSignal;
  /** The origins (serialised) of `exposedTo`: documents of these origins elsewhere in the tree may use the tool. */
  exposedTo?: string[];
}

/** Native Chromium's words for a document the `tools` permissions policy does not allow. */
const NOT_ALLOWED_MESSAGE = 'Access to the feature "tools" is disallowed by permissions policy.';

/**
 * The answer for a document that waits to learn whether it may use tools, by context: set by
 * {@link settleToolsPolicy}. Not a member of the class, so the page sees nothing native's prototype lacks.
 */
const policyAnswers = new WeakMap<PolyfillModelContext, (allowed: boolean) => void>();

/**
 * Whether the document of `context` may use tools (the `tools` permissions policy, decided by the extension's
 * background from what the parent frame's content script sees: lib/background/create-frame-delegation.ts). Until
 * this is called, a document that is cross-origin with its top holds every call; once called, the answer stands.
 */
export function settleToolsPolicy(context: PolyfillModelContext, allowed: boolean): void {
  policyAnswers.get(context)?.(allowed);
  policyAnswers.delete(context);
}

/**
 * What the page bridge hands a context to reach other origins' frames through the extension, by context (not members
 * of the class, so the page sees nothing native's prototype lacks): see {@link linkExposure}.
 */
const exposureHooks = new WeakMap<
  PolyfillModelContext,
  {
    link(link: ExposureLink): void;
    changed(): void;
    run(name: string, caller: string, inputJson: string, signal: AbortSignal): Promise<string | null>;
  }
>();

/**
 * Connects a context to the extension's relay of tools exposed across origins (lib/page-world/exposure-link.ts): from
 * now on it tells the extension which of its tools it exposes, lists other origins' tools exposed to it when asked
 * for their origins, and runs them.
 */
export function linkExposure(context: PolyfillModelContext, link: ExposureLink): void {
  exposureHooks.get(context)?.link(link);
}

/** A tool exposed to this document's origin came or went in a frame of another origin: toolchange fires here. */
export function exposedToolsChanged(context: PolyfillModelContext): void {
  exposureHooks.get(context)?.changed();
}

/**
 * Runs this document's tool `name` for a frame of origin `caller` (as the extension's background attested it), if
 * the tool is still registered and exposed to that origin; else rejects as native does for an unknown tool.
 */
export function runExposedTool(
  context: PolyfillModelContext,
  name: string,
  caller: string,
  inputJson: string,
  signal: AbortSignal,
): Promise<string | null> {
  return exposureHooks.get(context)?.run(name, caller, inputJson, signal) ?? Promise.reject(unknownToolError());
}

/** The polyfill's ModelContext. Exported for the MAIN-world wiring and for tests. */
export class PolyfillModelContext extends EventTarget {
  readonly #tools = new Map<string, Registered>();
  readonly #win: Window & typeof globalThis;
  readonly #events: ToolEventClasses;
  readonly #handlers = new Map<string, ((event: Event) => void) | null>();
  /** The document this modelContext belongs to: once it is not fully active, every method rejects. */
  readonly #doc: Document;
  readonly #peer: Peer;
  /**
   * Whether this document may use tools (the `tools` permissions policy, default allowlist `'self'`): known at once
   * for the top and documents same-origin with it; for any other, undefined until the extension answers
   * ({@link settleToolsPolicy}), and every call waits for {@link #policy}. A page cannot read its embedder's `allow`
   * attribute, and this document's own scripts cannot be believed about it, so the background decides.
   */
  #allowed: boolean | undefined;
  readonly #policy: Promise<boolean> | undefined;
  /** This realm's `AbortSignal.prototype.aborted` getter: its brand check tells an AbortSignal (of any realm) from a look-alike. */
  readonly #abortedGetter: (this: unknown) => boolean;
  /** The way to other origins' frames, once the page bridge gave one (polyfill mode, with the extension). */
  #link: ExposureLink | undefined;
  #hidden = false;

  constructor(win: Window) {
    super();
    this.#win = win as Window & typeof globalThis;
    this.#doc = win.document;
    this.#abortedGetter = abortedGetterOf(this.#win);
    this.#allowed = sameOriginAncestry(win) ? true : undefined;
    if (this.#allowed === undefined) {
      this.#policy = new Promise((resolve) =>
        policyAnswers.set(this, (allowed) => {
          this.#allowed = allowed;
          resolve(allowed);
        }),
      );
    }
    this.#events = defineToolEvents(this.#win);
    // A document being unloaded (its frame navigates) no longer offers its tools to the others, as native's.
    win.addEventListener('pagehide', () => (this.#hidden = true));
    win.addEventListener('pageshow', () => {
      // Not for the next document of a window that outlived this one (a frame's initial about:blank, replaced by a
      // same-origin document, keeps its window, and these listeners): only when this document comes back.
      if (isInactive(this.#doc)) return;
      this.#hidden = false;
      this.#publishIfExposing();
    });
    exposureHooks.set(this, {
      link: (link) => {
        this.#link = link;
        this.#publishIfExposing();
      },
      changed: () => {
        // A change can come before the background has said whether this frame may use tools (its bridge has just
        // loaded): it is heard once the frame may, never where it may not.
        void this.#whenAllowed(async () => {
          if (isInactive(this.#doc)) return;
          // In a task, as every toolchange.
          this.#win.setTimeout(() => this.dispatchEvent(new this.#win.Event('toolchange')), 0);
        }).catch(() => undefined);
      },
      run: (name, caller, inputJson, signal) => {
        const registered = this.#tools.get(name);
        if (!registered || this.#hidden || !registered.exposedTo?.includes(caller)) {
          return Promise.reject(unknownToolError());
        }
        return this.#run(registered, JSON.parse(inputJson), signal);
      },
    });
    this.#peer = {
      origin: originOf(win),
      tools: () =>
        (this.#hidden ? [] : [...this.#tools.values()]).map(({ name, title, description, schemaJson, outputSchemaJson, annotations }) => ({
          name,
          title,
          description,
          schemaJson,
          outputSchemaJson,
          annotations,
        })),
      run: (name, inputJson, signal) => {
        const registered = this.#tools.get(name);
        if (!registered) return Promise.reject(unknownToolError());
        return this.#run(registered, JSON.parse(inputJson), signal);
      },
      changed: () => this.dispatchEvent(new this.#win.Event('toolchange')),
    };
    offerPeer(win, this.#peer);
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

  registerTool(tool: unknown, options: unknown = {}): Promise<void> {
    // WebIDL: argument and dictionary errors reject the returned promise (a promise-returning operation never throws).
    try {
      // biome-ignore lint/complexity/noArguments: WebIDL counts the arguments given, not the parameters declared.
      if (arguments.length === 0) throw new TypeError(failedToExecute('registerTool', '1 argument required, but only 0 present.'));
      const read = readModelContextTool(tool);
      // The options dictionary's members in code-point order, as native reads them.
      const where = { operation: 'registerTool', dictionary: 'ModelContextRegisterToolOptions' };
      const dictionary = readDictionaryArgument(options, where);
      const exposedTo = readUSVStringSequence(dictionary?.exposedTo, { ...where, member: 'exposedTo' });
      const signal = readAbortSignalMember(dictionary?.signal, { ...where, member: 'signal' }, this.#abortedGetter);
      if (isInactive(this.#doc)) throw inactiveError(this.#doc);
      // As Chromium 156 orders them: the permissions policy, the tool's own checks, the signal, then the origins.
      return this.#whenAllowed(() => {
        const registered = checkModelContextTool(read, this.#tools);
        if (signal?.aborted) return Promise.reject(signal.reason);
        this.#checkOrigins(exposedTo, 'exposedTo');
        return this.#register({ ...registered, ...exposedOrigins(exposedTo, this.#win.URL) }, signal);
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  getTools(options?: { fromOrigins?: unknown }): Promise<PolyfillToolInfo[]>;
  getTools(): Promise<PolyfillToolInfo[]> {
    try {
      // Native's getTools(optional ModelContextGetToolOptions options = {}) has length 0.
      // biome-ignore lint/complexity/noArguments: read as WebIDL reads an optional argument, without declaring it.
      const options = readDictionaryArgument(arguments[0], { operation: 'getTools', dictionary: 'ModelContextGetToolOptions' });
      const fromOrigins = readUSVStringSequence(options?.fromOrigins, {
        operation: 'getTools',
        dictionary: 'ModelContextGetToolOptions',
        member: 'fromOrigins',
      });
      if (isInactive(this.#doc)) throw inactiveError(this.#doc);
      return this.#whenAllowed(() => {
        this.#checkOrigins(fromOrigins, 'fromOrigins');
        const local = listFrameTreeTools(this.#tree());
        // Other origins' tools are listed only when asked for by origin, and only those exposed to this one.
        const foreign = [...new Set((fromOrigins ?? []).map((origin) => new this.#win.URL(origin).origin))].filter(
          (origin) => origin !== 'null' && origin !== this.#peer.origin,
        );
        if (!this.#link || foreign.length === 0) return Promise.resolve(local);
        return this.#link.list(foreign).then(
          (entries) => withExposedTools(this.#win, this.#peer.origin, local, entries),
          () => local,
        );
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs `rest` once this document may use tools, or rejects with native's NotAllowedError; at once when the answer
   * is known (the top, a document same-origin with it), so those keep native's timing to the task.
   */
  #whenAllowed<T>(rest: () => Promise<T>): Promise<T> {
    if (this.#allowed === true) return rest();
    const refuse = () => Promise.reject(new DOMException(NOT_ALLOWED_MESSAGE, 'NotAllowedError'));
    if (this.#allowed === false || !this.#policy) return refuse();
    return this.#policy.then((allowed) => (allowed ? rest() : refuse()));
  }

  /** `exposedTo` and `fromOrigins` take potentially trustworthy origins only, as native: else SecurityError. */
  #checkOrigins(origins: string[] | undefined, member: 'exposedTo' | 'fromOrigins'): void {
    if (origins?.some((origin) => !isPotentiallyTrustworthyUrl(origin, this.#win.URL))) {
      throw new DOMException(`Only secure origins are allowed in the ${member} list.`, 'SecurityError');
    }
  }

  /**
   * Tool continuations (docs/webmcp-conformance.md; lib/page-world/tool-continuations.ts): finishes, with `callback`'s
   * result, the agent's call whose tool asked for `token` in the document before this one.
   */
  resumeTool(token: unknown, callback: unknown): Promise<void> {
    try {
      // biome-ignore lint/complexity/noArguments: WebIDL counts the arguments given, not the parameters declared.
      const given = arguments.length;
      if (given < 2) throw new TypeError(failedToExecute('resumeTool', `2 arguments required, but only ${given} present.`));
      const read = String(token);
      if (typeof callback !== 'function') throw new TypeError(failedToExecute('resumeTool', "parameter 2 is not of type 'Function'."));
      if (isInactive(this.#doc)) throw inactiveError(this.#doc);
      return resumeToolCall(this.#win, read, callback as (client: { signal: AbortSignal }) => unknown, serializeToolResult);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  executeTool(tool: unknown, input?: unknown, options: unknown = {}): Promise<string | null> {
    try {
      const ref = readRegisteredTool(tool);
      const where = { operation: 'executeTool', dictionary: 'ExecuteToolOptions' };
      const signal = readAbortSignalMember(
        readDictionaryArgument(options, where)?.signal,
        { ...where, member: 'signal' },
        this.#abortedGetter,
      );
      if (isInactive(this.#doc)) throw inactiveError(this.#doc);
      // As native: a document that may not use tools learns nothing else, not even that its input is wrong.
      return this.#whenAllowed(() => this.#execute(ref, input, signal));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #execute({ name, origin, win }: RegisteredToolRef, input: unknown, signal: AbortSignal | undefined): Promise<string | null> {
    {
      // As native, the tool's origin is read first: a URL names its origin, anything else is refused.
      const toolOrigin = readToolOrigin(origin, this.#win.URL);
      // As native: the tool of a frame that was removed since it was listed.
      if (win.closed) throw new DOMException('Target frame is detached.', 'InvalidStateError');
      if (win === this.#win) {
        const registered = this.#tools.get(name);
        if (!registered || toolOrigin !== this.#peer.origin) throw unknownToolError();
        return this.#run(registered, JSON.parse(readToolInputJson(input)), signal);
      }
      // Another document's: only one of the same-origin documents of this frame tree (made-up origins, other
      // windows and cross-origin frames are unknown tools), and only a tool it has.
      const found = this.#tree().find(([other]) => other === win);
      // A window of another origin: one of its tools exposed to this document's origin, through the extension.
      if (!found) return runOtherOriginTool(this.#link, this.#win, { name, origin: toolOrigin, win }, input, signal);
      const peer = found[1];
      if (!peer || toolOrigin !== peer.origin || !peer.tools().some((t) => t.name === name)) {
        throw unknownToolError();
      }
      return runInPeer(this.#win, win, peer, name, readToolInputJson(input), signal);
    }
  }

  /** Tells the extension which of this document's tools it exposes to other origins (all of them, now). */
  #publish(): void {
    if (!this.#link) return;
    this.#link.publish(exposedToolsOf(this.#tools.values(), this.#hidden));
  }

  #publishIfExposing(): void {
    if ([...this.#tools.values()].some((tool) => tool.exposedTo)) this.#publish();
  }

  /** The same-origin documents of this document's frame tree, with their polyfills' peers ({@link frameTreePeers}). */
  #tree(): FrameTree {
    return frameTreePeers(this.#win, this.#peer);
  }

  /** Fires `toolchange` in every same-origin document of the tree, this one included, unless this one went away. */
  #notifyTree(): void {
    if (isInactive(this.#doc)) return;
    notifyFrameTree(this.#tree());
  }

  #register(registered: Registered, signal: AbortSignal | undefined): Promise<void> {
    this.#tools.set(registered.name, { ...registered, signal });
    const stored = this.#tools.get(registered.name)!;
    if (registered.exposedTo) this.#publish();
    signal?.addEventListener(
      'abort',
      () => {
        if (this.#tools.get(registered.name) !== stored) return;
        this.#tools.delete(registered.name);
        if (stored.exposedTo) this.#publish();
        this.#changed();
      },
      { once: true },
    );
    // As native: toolchange is dispatched in a task, in every same-origin document of the tree, and the
    // registration resolves right after it, before the tasks its listeners queue. A signal that aborts before then
    // rejects the registration at once with its reason (the tool still comes and goes, with a toolchange each).
    return new Promise((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      this.#win.setTimeout(() => {
        this.#notifyTree();
        resolve();
      }, 0);
    });
  }

  /** Runs this document's tool `registered` ({@link runToolCall}): its events fire at this modelContext. */
  #run(registered: Registered, args: unknown, outer: AbortSignal | undefined): Promise<string | null> {
    return runToolCall(this.#win, this, this.#events, registered, args, outer);
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
    // In a task, as native.
    this.#win.setTimeout(() => this.#notifyTree(), 0);
  }
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
  const legacy = legacyRegistrations(win);
  const proto = documentPrototypeOf(win, doc);
  const get = function (this: Document) {
    if (this !== doc) return undefined;
    // A registration that follows comes through today's API, whatever the page read before (the audit's concern).
    legacy.documentRead();
    return context;
  };
  Object.defineProperty(proto, 'modelContext', { configurable: true, enumerable: true, get });
  // A frame's initial about:blank gives its window to its first same-origin document (docs/platform-notes.md): the
  // getter left on that window's Document.prototype would read as native to the next document's stub, which would
  // then leave that document without a modelContext. A page only hidden (kept for back/forward) comes back to it.
  win.addEventListener('pagehide', (event) => {
    if ((event as PageTransitionEvent).persisted || Object.getOwnPropertyDescriptor(proto, 'modelContext')?.get !== get) return;
    delete (proto as { modelContext?: unknown }).modelContext;
  });
  return context;
}
