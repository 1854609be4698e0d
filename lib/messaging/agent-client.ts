import { HOST_LEFT_UNANSWERED, type HostEvent, type PanelAsks, type PanelIntent } from './agent-messages';
import { type AskOptions, type AskType, createRequestLine, type RequestLine, type UpdateOf } from './create-request-line';

/** A runtime Port as the panel uses it (browser.runtime.Port fits). */
export interface PanelPort {
  postMessage(message: PanelIntent): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
  disconnect(): void;
}

/** The panel's line to the agent host. */
export interface AgentClient {
  /** Sends an intent; intents sent while the host is unreachable wait and go out, in order, once it answers. */
  send(intent: PanelIntent): void;
  /**
   * Asks the host on the request line over the Port (lib/messaging/create-request-line.ts) and resolves with its
   * answer. An ask made while the host is unreachable waits and goes out once it answers; an ask the host has and
   * has not answered when the Port drops fails with HOST_LEFT_UNANSWERED (the host that comes back knows nothing of
   * it); aborting `signal` cancels it, at the host too.
   */
  ask<T extends AskType<PanelAsks>>(
    type: T,
    request: PanelAsks[T]['request'],
    options?: AskOptions<UpdateOf<PanelAsks, T>>,
  ): Promise<PanelAsks[T]['answer']>;
  /** Host events, in order. */
  subscribe(listener: (event: HostEvent) => void): () => void;
  /** True once the host has answered on the current connection. */
  connected(): boolean;
  /** Called when connected() changes. */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
  close(): void;
}

interface AgentClientOptions {
  /** Opens a Port to the host: browser.runtime.connect({ name: AGENT_PORT_NAME }). */
  connect: () => PanelPort;
  /**
   * Wakes whatever starts the host (Chrome's service worker creates the offscreen document when it starts). Called
   * before every reconnection.
   */
  wake?: () => Promise<unknown>;
  /** Pause before reconnecting. Default 300 ms. */
  retryDelayMs?: number;
}

/**
 * Creates the client. A Port can drop at any time (the host document restarted, the extension updated): the client
 * reconnects, binds the same tab again, and sends what was waiting. A connection only counts once the host has
 * answered, because a Port to a host that does not exist yet opens fine and then drops.
 */
export function createAgentClient(options: AgentClientOptions): AgentClient {
  const { connect, wake, retryDelayMs = 300 } = options;
  const listeners = new Set<(event: HostEvent) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  let port: PanelPort | undefined;
  let answered = false;
  let closed = false;
  let bind: PanelIntent | undefined;
  let waiting: PanelIntent[] = [];
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The request line over the current Port, once the host has answered on it. */
  let line: RequestLine<PanelAsks> | undefined;
  /** Asks made while no host answered: each goes out on the next line. */
  let waitingAsks: ((on: RequestLine<PanelAsks>) => void)[] = [];

  const setAnswered = (value: boolean) => {
    if (answered === value) return;
    answered = value;
    for (const listener of [...connectionListeners]) listener(value);
  };

  /** Posts, or reports false when the Port has already gone (the reconnection then resends). */
  const post = (target: PanelPort, intent: PanelIntent) => {
    try {
      target.postMessage(intent);
      return true;
    } catch {
      return false;
    }
  };

  const open = () => {
    if (closed) return;
    const current = connect();
    port = current;
    const currentLine = panelLine(current);
    current.onMessage.addListener((message) => {
      if (port !== current || isLineMessage(message)) return;
      if (!answered) {
        line = currentLine;
        setAnswered(true);
        const asks = waitingAsks;
        waitingAsks = [];
        for (const ask of asks) ask(currentLine);
        const queued = waiting;
        waiting = [];
        for (const [i, intent] of queued.entries()) {
          if (!post(current, intent)) {
            waiting = [...queued.slice(i), ...waiting];
            break;
          }
        }
      }
      for (const listener of [...listeners]) listener(message as HostEvent);
    });
    current.onDisconnect.addListener(() => {
      if (port !== current) return;
      port = undefined;
      line = undefined;
      setAnswered(false);
      if (closed) return;
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        void (wake?.() ?? Promise.resolve()).catch(() => undefined).finally(open);
      }, retryDelayMs);
    });
    // The bind is the handshake: the host answers it with the tab's snapshot.
    if (bind) post(current, bind);
  };

  open();

  return {
    send(intent) {
      if (intent.type === 'panel/bind') {
        bind = intent;
        // Intents for the tab we are leaving must not land on the new one.
        waiting = waiting.filter((w) => !('tabId' in w) || w.tabId === intent.tabId);
        if (port) post(port, intent);
        return;
      }
      if (!(port && answered && post(port, intent))) waiting.push(intent);
    },
    ask(type, request, askOptions) {
      if (line) return line.ask(type, request, askOptions);
      if (closed) return Promise.reject(new Error(HOST_LEFT_UNANSWERED));
      const { signal } = askOptions ?? {};
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise((resolve, reject) => {
        const go = (on: RequestLine<PanelAsks>) => {
          signal?.removeEventListener('abort', onAbort);
          on.ask(type, request, askOptions).then(resolve, reject);
        };
        const onAbort = () => {
          waitingAsks = waitingAsks.filter((w) => w !== go);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waitingAsks.push(go);
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connected: () => answered,
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    close() {
      closed = true;
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      // A Port's own end never hears its disconnect: the line is closed here, failing what it had pending.
      line?.close();
      line = undefined;
      port?.disconnect();
      port = undefined;
    },
  };
}

/** The request line over one panel Port: every ask pending when the Port drops fails with HOST_LEFT_UNANSWERED. */
function panelLine(port: PanelPort): RequestLine<PanelAsks> {
  return createRequestLine<PanelAsks>({
    transport: {
      send: (message) => port.postMessage(message as unknown as PanelIntent),
      onMessage: (listener) => port.onMessage.addListener((message) => isLineMessage(message) && listener(message)),
      onClose: (listener) => port.onDisconnect.addListener(() => listener()),
    },
    closedError: () => new Error(HOST_LEFT_UNANSWERED),
  });
}

/** Whether a message on the Port is the request line's (an ask, an answer, an update, a cancel) rather than an event. */
export function isLineMessage(message: unknown): boolean {
  return typeof message === 'object' && message !== null && typeof (message as { line?: unknown }).line === 'string';
}
