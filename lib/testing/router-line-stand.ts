/**
 * Chrome's router line as the browser carries it, in memory: the background's end (set-up-router-lines.ts, with the
 * router's `handlers`) opens a Port to the offscreen host's runtime.onConnect, where the host's client
 * (createRouterClient) takes it; the host's `router/connect` reaches the background by a runtime message. Test
 * doubles carry them (runtime-port-pair.ts, runtime-message-bus.ts). `stopWorker` is Chrome stopping the service
 * worker: the Ports it opened close, and the next message to it (the host's call for a line) starts a new one.
 * `hostGone` is the offscreen document closing: the Ports it took close.
 */
import { setUpRouterLines } from '../background/set-up-router-lines';
import { createRouterClient } from '../host/create-router-client';
import type { LineHandlers } from '../messaging/create-request-line';
import type { BackgroundToHostMessage, RouterLine } from '../messaging/router-messages';
import { createRuntimeMessageBus } from './runtime-message-bus';
import { createRuntimeConnectEvent, type TestRuntimePort } from './runtime-port-pair';

export const STAND_EXTENSION = { id: 'ext-id', origin: 'chrome-extension://ext-id/' };
const STAND_SERVICE_WORKER = { id: 'ext-id', url: 'chrome-extension://ext-id/background.js', origin: 'chrome-extension://ext-id' };
export const STAND_OFFSCREEN = { id: 'ext-id', url: 'chrome-extension://ext-id/offscreen.html', origin: 'chrome-extension://ext-id' };

interface StandOptions {
  /** What the router answers (read when a line opens). */
  handlers(): LineHandlers<RouterLine>;
  /** The client's own options. */
  lineWaitMs?: number;
  keepaliveMs?: number;
  /** Deliver Port messages in microtasks instead of tasks (runtime-port-pair.ts). */
  microtasks?: boolean;
  /** Hears what the host sends on its line, as it goes. */
  onHostSend?(message: unknown): void;
}

/** The stand: the host's client, the router's push, and the two contexts going away. */
export function createRouterLineStand(options: StandOptions) {
  const host = createRuntimeConnectEvent(options.microtasks ? queueMicrotask : undefined);
  const startWorker = () => {
    const bus = createRuntimeMessageBus();
    const opened: TestRuntimePort[] = [];
    const lines = setUpRouterLines(
      {
        runtime: {
          connect: (info) => {
            const port = host.connect(info.name, STAND_SERVICE_WORKER);
            opened.push(port);
            return port;
          },
          onMessage: bus.onMessage,
        },
      },
      { extension: STAND_EXTENSION, handlers: options.handlers, hostDocumentUp: () => Promise.resolve() },
    );
    return { bus, lines, opened, stopped: false };
  };
  let worker = startWorker();
  const client = createRouterClient({
    onConnect: {
      addListener: (listener) =>
        host.onConnect.addListener((port) => {
          if (options.onHostSend) {
            const post = port.postMessage;
            port.postMessage = (message) => {
              options.onHostSend?.(message);
              post(message);
            };
          }
          listener(port);
        }),
    },
    extension: STAND_EXTENSION,
    serviceWorkerUrl: STAND_SERVICE_WORKER.url,
    callRouter: () => {
      // A message to a stopped worker starts a new one.
      if (worker.stopped) worker = startWorker();
      worker.bus.send({ type: 'router/connect' }, STAND_OFFSCREEN);
    },
    ...(options.lineWaitMs !== undefined ? { lineWaitMs: options.lineWaitMs } : {}),
    ...(options.keepaliveMs !== undefined ? { keepaliveMs: options.keepaliveMs } : {}),
  });
  return {
    client,
    /** The router's push (its ToolRouterPorts.notifyHost), in the worker running now (the news wakes a stopped one). */
    notifyHost: (message: BackgroundToHostMessage) => {
      if (worker.stopped) worker = startWorker();
      worker.lines.notifyHost(message);
    },
    /** Chrome stops the service worker: its Ports close. */
    stopWorker() {
      worker.stopped = true;
      for (const port of worker.opened) port.disconnect();
    },
    /** The offscreen document closes: the Ports it took close. */
    hostGone: () => host.stop(),
    /** The offscreen host's runtime.onConnect, for a Port from another sender. */
    connectToHost: (name: string, sender: typeof STAND_OFFSCREEN) => host.connect(name, sender),
  };
}
