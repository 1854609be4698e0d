/**
 * The MCP server's line to the extension: a connection to the native-messaging host's socket, with requests
 * matched to their replies. The browser may start after the desktop agent, restart, or turn the bridge off and on:
 * the link keeps trying (every `retryMs`) and says when it connects or loses the connection, so the server can tell
 * its client that the tools changed.
 */
import { randomUUID } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import { createLineReader } from './native-messaging.js';
import {
  BRIDGE_PROTOCOL,
  type BridgeClientInfo,
  type ExtensionToServer,
  type HostHello,
  isObject,
  type ReplyResults,
  type ServerToExtension,
} from './protocol.js';

/** Why a request got no answer: the browser side is not there (or went away while it waited). */
export class NotConnectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotConnectedError';
  }
}

/** The extension refused a request and said why. */
export class ExtensionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtensionError';
  }
}

type RequestType = keyof ReplyResults & ServerToExtension['type'];
type RequestFields<T extends RequestType> = Omit<Extract<ServerToExtension, { type: T }>, 'type' | 'id'>;

interface BridgeLinkOptions {
  socketPath: string;
  /** The client as it named itself (read when the link connects). */
  client: () => BridgeClientInfo;
  /** The nonce of the delimiter the server's instructions name (lib/page-data/spotlight.ts on the extension side). */
  nonce: string;
  /** Connected (after the extension answered the hello), or the connection was lost. */
  onConnectionChange?: (connected: boolean) => void;
  /** The extension says the shared tools changed. */
  onListChanged?: () => void;
  /** How long to wait between attempts to connect. Default 2 s. */
  retryMs?: number;
  /** net.connect, replaceable in tests. */
  connect?: (path: string) => Socket;
}

/** The link. */
export interface BridgeLink {
  /** Starts connecting (and keeps trying). */
  start(): void;
  /** Whether the extension answered on the current connection. */
  connected(): boolean;
  /** The browser family the host said it serves, while connected. */
  browser(): HostHello['browser'] | undefined;
  /** Waits up to `ms` for a connection (a request right after start need not fail). */
  whenConnected(ms: number): Promise<boolean>;
  /**
   * Sends a request and resolves with the extension's answer; rejects with NotConnectedError or ExtensionError.
   * `onWaiting` hears the extension say the call waits for the person.
   */
  request<T extends RequestType>(
    type: T,
    fields: RequestFields<T>,
    signal?: AbortSignal,
    onWaiting?: (message: string) => void,
  ): Promise<ReplyResults[T]>;
  /** Says hello again (the client named itself after the link connected). */
  rehello(): void;
  close(): void;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onWaiting?: (message: string) => void;
}

/** Creates the link (not yet connecting: call start). */
export function createBridgeLink(options: BridgeLinkOptions): BridgeLink {
  const connectTo = options.connect ?? netConnect;
  const retryMs = options.retryMs ?? 2_000;
  let socket: Socket | undefined;
  let ready = false;
  let hostBrowser: HostHello['browser'] | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const pending = new Map<string, Pending>();
  const waiters = new Set<() => void>();

  const setReady = (value: boolean) => {
    if (ready === value) return;
    ready = value;
    for (const wake of [...waiters]) wake();
    options.onConnectionChange?.(value);
  };

  const send = (message: ServerToExtension) => {
    if (!socket) return false;
    socket.write(`${JSON.stringify(message)}\n`);
    return true;
  };

  const hello = (current: Socket) => {
    const id = randomUUID();
    pending.set(id, {
      resolve: () => {
        if (socket === current) setReady(true);
      },
      reject: () => current.destroy(),
    });
    send({ type: 'client/hello', id, protocol: BRIDGE_PROTOCOL, client: options.client(), nonce: options.nonce });
  };

  const schedule = () => {
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      open();
    }, retryMs);
  };

  const open = () => {
    if (closed || socket) return;
    const current = connectTo(options.socketPath);
    socket = current;
    current.on(
      'data',
      createLineReader(
        (message) => {
          if (socket !== current || !isObject(message)) return;
          const m = message as ExtensionToServer | HostHello;
          if (m.type === 'host/hello') {
            hostBrowser = m.browser;
            hello(current);
          } else if (m.type === 'reply') {
            const waiting = pending.get(m.id);
            if (!waiting) return;
            pending.delete(m.id);
            if ('error' in m) waiting.reject(new ExtensionError(String(m.error?.message ?? 'The extension refused the request.')));
            else waiting.resolve(m.result);
          } else if (m.type === 'tools/list-changed') options.onListChanged?.();
          else if (m.type === 'tools/waiting' && typeof m.id === 'string') pending.get(m.id)?.onWaiting?.(String(m.message ?? ''));
        },
        { maxLineBytes: 64 * 1024 * 1024, onTooLong: () => current.destroy() },
      ),
    );
    current.on('error', () => current.destroy());
    current.on('close', () => {
      if (socket !== current) return;
      socket = undefined;
      hostBrowser = undefined;
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(new NotConnectedError('The browser closed the connection before it answered.'));
      }
      setReady(false);
      schedule();
    });
  };

  return {
    start: open,
    connected: () => ready,
    browser: () => (ready ? hostBrowser : undefined),
    whenConnected: (ms) =>
      ready
        ? Promise.resolve(true)
        : new Promise((resolve) => {
            const wake = () => {
              clearTimeout(timer);
              waiters.delete(wake);
              resolve(ready);
            };
            const timer = setTimeout(wake, ms);
            waiters.add(wake);
          }),
    request(type, fields, signal, onWaiting) {
      if (!ready || !socket) return Promise.reject(new NotConnectedError('Not connected to the browser.'));
      const id = randomUUID();
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          pending.delete(id);
          send({ type: 'tools/cancel', id });
          reject(signal?.reason instanceof Error ? signal.reason : new Error('cancelled'));
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        pending.set(id, {
          resolve: (value) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(value as ReplyResults[typeof type]);
          },
          reject: (error) => {
            signal?.removeEventListener('abort', onAbort);
            reject(error);
          },
          ...(onWaiting ? { onWaiting } : {}),
        });
        send({ type, id, ...fields } as ServerToExtension);
      });
    },
    rehello() {
      if (socket && hostBrowser) hello(socket);
    },
    close() {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      socket?.destroy();
    },
  };
}
