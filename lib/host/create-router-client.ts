/**
 * The RouterClient of an agent host that is not the background (Chrome's offscreen document). Push, not pull: the
 * router sends each watched tab's snapshot when it changes, and a call's answer carries the snapshot after it, so
 * the client keeps every tab's latest snapshot and asks the router only for a tab it has never seen. One tool
 * call is one message (router/call-tool) and its answer (lib/messaging/router-messages.ts).
 */
import type { ToolOutput } from '../agent/types';
import type { HostToBackgroundMessage, RouterChannel, RouterPushChannel } from '../messaging/router-messages';
import { type ChannelHandlers, handleMessage, sendMessage } from '../messaging/channel';
import { cancelledBeforeStart, cancelledInPage, toolErrorOutput } from '../agent/tool-error-output';
import type { RouterClient } from '../messaging/router-client';
import type { TabToolSnapshot } from '../messaging/tab-tool-snapshot';

interface RouterClientPorts {
  /** runtime.sendMessage to the background. */
  sendMessage(message: HostToBackgroundMessage): Promise<unknown>;
  /** runtime.onMessage.addListener, for the background's broadcasts. */
  onMessage(listener: (message: unknown) => void): void;
  /** A unique id per call (crypto.randomUUID in the browser). */
  newId?: () => string;
  /** How often a pending call pings the background (default 20 s, under Chrome's 30 s idle limit). */
  keepaliveMs?: number;
}

/** Creates the client. */
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
  const stateHandlers = new Map<string, (state: { state: 'awaiting-confirmation'; prompt: string }) => void>();
  let counter = 0;
  const newId = ports.newId ?? (() => `${Date.now().toString(36)}-${++counter}-${Math.random().toString(36).slice(2)}`);

  const pushes: ChannelHandlers<RouterPushChannel> = {
    'host/tools-changed': (message) => {
      if (keep(message.snapshot)) for (const listener of listeners) listener(message.snapshot.tabId);
    },
    'host/call-state': (message) => {
      stateHandlers.get(message.requestId)?.({ state: message.state, prompt: message.prompt });
    },
  };
  ports.onMessage((message) => void handleMessage(pushes, message, undefined));
  const ask = <T extends keyof RouterChannel>(type: T, request: RouterChannel[T]['request']) =>
    sendMessage<RouterChannel, T>(ports.sendMessage, type, request);

  return {
    async getTools(tabId) {
      const known = snapshots.get(tabId);
      if (known) return known;
      // The first time: the router starts watching the tab and pushes from then on.
      keep(await ask('router/get-tools', { tabId }));
      return snapshots.get(tabId) ?? { tabId, tools: [], page: {} };
    },
    async callTool(tabId, call, options = {}) {
      if (options.signal?.aborted) return cancelledBeforeStart();
      const requestId = newId();
      if (options.onState) stateHandlers.set(requestId, options.onState);
      const keepalive = setInterval(() => void ask('router/keepalive', {}).catch(() => undefined), ports.keepaliveMs ?? 20_000);
      const cancelled = new Promise<ToolOutput>((resolve) => {
        options.signal?.addEventListener(
          'abort',
          () => {
            void ask('router/cancel-call', { requestId }).catch(() => undefined);
            resolve(cancelledInPage(call.name));
          },
          { once: true },
        );
      });
      const answered = ask('router/call-tool', { tabId, call, requestId, ...(options.expect ? { expect: options.expect } : {}) }).then(
        (answer) => {
          if (!isToolOutput(answer?.output)) return toolErrorOutput('frame_gone', 'The extension background answered without a result.');
          if (keep(answer.snapshot)) for (const listener of listeners) listener(tabId);
          return answer.output;
        },
        (error) => toolErrorOutput('frame_gone', `The extension background did not answer: ${String((error as Error)?.message ?? error)}`),
      );
      try {
        return await Promise.race([answered, cancelled]);
      } finally {
        clearInterval(keepalive);
        stateHandlers.delete(requestId);
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
