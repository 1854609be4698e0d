/**
 * `SubmitEvent.prototype.agentInvoked` and `respondWith()`, as native Chromium defines them (enumerable,
 * configurable, `respondWith.length` 1, "Illegal invocation" on anything but a SubmitEvent), for browsers without
 * native WebMCP. The page-world stub defines them before any page listener sees a submit event, the polyfill's
 * declarative forms (install-declarative-forms.ts) decide which events are the agent's: the two share one
 * {@link SubmitEventState} per window, found under a `Symbol.for` key, as each script bundles its own copy of this
 * file. docs/webmcp-conformance.md says when they appear and why not earlier.
 */

/** One agent-invoked submit event: the polyfill's answer to `respondWith()` on it (which checks the rest). */
interface AgentSubmit {
  respond(event: Event, response: unknown): void;
}

interface SubmitEventState {
  /** The agent-invoked submit events. */
  readonly agent: WeakMap<Event, AgentSubmit>;
  /** Set by the polyfill; called for every submit event before any page listener (a window capture listener). */
  onSubmit?: (event: Event) => void;
}

const KEY = Symbol.for('webmcp-agent.submit-event');

/**
 * The window's state, defining the two members on `SubmitEvent.prototype` the first time (unless they exist).
 * Kept small, as the stub carries it to every page: what only an agent's submit needs is the polyfill's.
 */
export function submitEventState(win: Window & typeof globalThis): SubmitEventState {
  const own = win as unknown as Record<symbol, SubmitEventState | undefined>;
  const known = own[KEY];
  if (known) return known;
  const state: SubmitEventState = { agent: new WeakMap() };
  Object.defineProperty(win, KEY, { value: state });
  const proto = win.SubmitEvent?.prototype;
  if (!proto || 'agentInvoked' in proto) return state;
  // Native's brand check: the `submitter` getter throws "Illegal invocation" for anything but a SubmitEvent.
  const brand = Object.getOwnPropertyDescriptor(proto, 'submitter')?.get;
  // An object literal's members are enumerable, configurable and writable, as WebIDL defines them.
  const members = {
    get agentInvoked(): boolean {
      brand?.call(this);
      return state.agent.has(this as unknown as Event);
    },
    respondWith(response: unknown): void {
      const event = this as unknown as Event;
      brand?.call(event);
      // biome-ignore lint/complexity/noArguments: WebIDL counts the arguments given.
      if (arguments.length === 0) throw new TypeError('1 argument required, but only 0 present.');
      const submit = state.agent.get(event);
      if (!submit) throw new DOMException('respondWith() is only for a submit event with agentInvoked == true.', 'InvalidStateError');
      submit.respond(event, response);
    },
  };
  Object.defineProperties(proto, Object.getOwnPropertyDescriptors(members));
  return state;
}
