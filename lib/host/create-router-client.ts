/**
 * The RouterClient of an agent host that is not the background (Chrome's offscreen document). It asks the router on
 * a request line over a runtime Port the background opens (lib/messaging/router-messages.ts RouterLine; the
 * background's end is lib/background/set-up-router-lines.ts), taken here only from the extension's service worker:
 * one tool call is one ask, its wait for the person an update, its Stop the line's cancel (the router's handler sees
 * its signal abort, the page gets toolcancel). Push, not pull: the router sends each watched tab's snapshot on the
 * line when it changes, and a call's answer carries the snapshot after it, so the client keeps every tab's latest
 * snapshot and asks the router only for a tab it has never seen.
 *
 * The service worker that holds the router may stop (idle) or restart: the line then closes, and every pending ask
 * fails with its one error (a call ends `Error [frame_gone]`). The host asks for a new line (`router/connect`, which
 * wakes the worker) when it starts and when it asks with none, and waits for it a while. While an ask is pending a
 * keepalive notice goes every 20 s: Chrome stops a service worker with no events for 30 s, and an open Port alone
 * is none.
 */
import type { ToolOutput } from '../agent/types';
import { cancelledBeforeStart, cancelledInPage, toolErrorOutput } from '../agent/tool-error-output';
import { type AttestedSender, isHostSender } from '../messaging/is-host-sender';
import { createRequestLine, LineClosedError, type RequestLine } from '../messaging/create-request-line';
import { portTransport } from '../messaging/port-transport';
import type { RouterClient } from '../messaging/router-client';
import { ROUTER_PORT_NAME, type RouterLine, type RouterPushLine } from '../messaging/router-messages';
import type { TabToolSnapshot } from '../messaging/tab-tool-snapshot';

/** The error every pending ask fails with when the line closes. */
const ROUTER_LINE_CLOSED = 'The extension background went away before it answered';

/** A runtime Port as the host takes it (browser.runtime.Port fits). */
type RouterPort = Parameters<typeof portTransport>[0] & { name: string; sender?: AttestedSender };

interface RouterClientPorts {
  /** runtime.onConnect: the background opens the line. */
  onConnect: { addListener(listener: (port: RouterPort) => void): void };
  /** The extension's id and origin, and its service worker's URL: the only sender a line is taken from. */
  extension: { id: string; origin: string };
  serviceWorkerUrl: string;
  /** Asks the background for a line (runtime.sendMessage `router/connect`: it wakes the service worker). */
  callRouter(): void;
  /** Chrome reports why a Port closed in runtime.lastError. */
  lastError?: () => string | undefined;
  /** How long an ask waits for a line (default 10 s). */
  lineWaitMs?: number;
  /** How often a pending ask pings the background (default 20 s, under Chrome's 30 s idle limit). */
  keepaliveMs?: number;
}

/** Creates the client, and asks for its first line. */
export function createRouterClient(ports: RouterClientPorts): RouterClient {
  const listeners = new Set<(tabId: number) => void>();
  const snapshots = new Map<number, TabToolSnapshot>();
  /**
   * Keeps the newer of two snapshots of a tab (a push and a call's answer may arrive in either order); true when it
   * is news to subscribers. The push that follows a call's answer often brings the very snapshot the answer did: no
   * one hears of it twice.
   */
  const keep = (snapshot: unknown): boolean => {
    if (!isSnapshot(snapshot)) return false;
    const known = snapshots.get(snapshot.tabId);
    if (known && (known.revision ?? 0) > (snapshot.revision ?? 0)) return false;
    if (known && known.revision === snapshot.revision && JSON.stringify(known) === JSON.stringify(snapshot)) return false;
    snapshots.set(snapshot.tabId, snapshot);
    return true;
  };

  let line: RequestLine<RouterLine> | undefined;
  const waiting = new Set<() => void>();
  ports.onConnect.addListener((port) => {
    if (port.name !== ROUTER_PORT_NAME) return;
    // Only the service worker opens it: a Port of this name from anything else is cut off.
    const { extension } = ports;
    if (!isHostSender(port.sender, extension.id, extension.origin) || port.sender?.url !== ports.serviceWorkerUrl) {
      try {
        port.disconnect();
      } catch {
        // Already gone.
      }
      return;
    }
    line?.close('the background opened another line');
    line = createRequestLine<RouterLine, RouterPushLine>({
      transport: portTransport(port, ports.lastError),
      notices: {
        'host/tools-changed': (message) => {
          if (keep(message.snapshot)) for (const listener of listeners) listener(message.snapshot.tabId);
        },
      },
      closedError: (detail) => new LineClosedError(`${ROUTER_LINE_CLOSED}${detail ? `: ${detail}` : '.'}`),
    });
    line.notify('router/ready', {});
    for (const wake of [...waiting]) wake();
  });
  /** The open line, or the next one (asked for): rejects when none comes in time. */
  const open = (): Promise<RequestLine<RouterLine>> => {
    if (line && !line.closed()) return Promise.resolve(line);
    return new Promise((resolve, reject) => {
      const wake = () => {
        if (!line || line.closed()) return;
        clearTimeout(timer);
        waiting.delete(wake);
        resolve(line);
      };
      const timer = setTimeout(() => {
        waiting.delete(wake);
        reject(new LineClosedError('The extension background did not answer.'));
      }, ports.lineWaitMs ?? 10_000);
      waiting.add(wake);
      // The line may come at once (the worker is awake).
      ports.callRouter();
    });
  };
  // A host that starts (or starts again) asks for its line: the router's pushes come on it.
  ports.callRouter();

  /** Asks on the open line (a new one when it closed), pinging the background while the ask is pending. */
  const ask = async <T extends 'router/get-tools' | 'router/call-tool'>(
    type: T,
    request: RouterLine[T]['request'],
    options: Parameters<RequestLine<RouterLine>['ask']>[2] = {},
  ): Promise<RouterLine[T]['answer']> => {
    const current = await open();
    const keepalive = setInterval(() => current.notify('router/keepalive', {}), ports.keepaliveMs ?? 20_000);
    try {
      return await current.ask(type, request, options as never);
    } finally {
      clearInterval(keepalive);
    }
  };

  return {
    async getTools(tabId) {
      const known = snapshots.get(tabId);
      if (known) return known;
      // The first time: the router starts watching the tab and pushes from then on.
      keep(await ask('router/get-tools', { tabId }));
      return snapshots.get(tabId) ?? { tabId, tools: [], page: {} };
    },
    async callTool(tabId, call, options = {}) {
      const { signal } = options;
      if (signal?.aborted) return cancelledBeforeStart();
      const request = { tabId, call, ...(options.expect ? { expect: options.expect } : {}) };
      try {
        const answer = await ask('router/call-tool', request, {
          ...(signal ? { signal } : {}),
          onUpdate: (state) => options.onState?.(state),
        });
        if (!isToolOutput(answer?.output)) return toolErrorOutput('frame_gone', 'The extension background answered without a result.');
        if (keep(answer.snapshot)) for (const listener of listeners) listener(tabId);
        return answer.output;
      } catch (error) {
        // Stop: the router's handler saw its signal abort and the page got toolcancel.
        if (signal?.aborted) return cancelledInPage(call.name);
        if (error instanceof LineClosedError) return toolErrorOutput('frame_gone', error.message);
        return toolErrorOutput('frame_gone', `The extension background did not answer: ${String((error as Error)?.message ?? error)}`);
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function isSnapshot(value: unknown): value is TabToolSnapshot {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as TabToolSnapshot).tabId === 'number' &&
    Array.isArray((value as TabToolSnapshot).tools)
  );
}

function isToolOutput(value: unknown): value is ToolOutput {
  return typeof value === 'object' && value !== null && Array.isArray((value as ToolOutput).content);
}
