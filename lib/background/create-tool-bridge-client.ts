/**
 * The ToolBridge of an agent host that is not the background (Chrome's offscreen document): each method is a
 * runtime message to the router (lib/messaging/bridge-messages.ts), and the router's broadcasts bring back
 * tool-change notices and awaiting-confirmation states.
 */
import type { ToolOutput } from '../agent/types';
import type { BackgroundToHostMessage, HostToBackgroundMessage } from '../messaging/bridge-messages';
import { toolErrorOutput } from '../webmcp/tool-error-output';
import type { TabToolSnapshot, ToolBridge } from './tool-bridge';

export interface ToolBridgeClientPorts {
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
export function createToolBridgeClient(ports: ToolBridgeClientPorts): ToolBridge {
  const listeners = new Set<(tabId: number) => void>();
  const stateHandlers = new Map<string, (state: { state: 'awaiting-confirmation'; prompt: string }) => void>();
  let counter = 0;
  const newId = ports.newId ?? (() => `${Date.now().toString(36)}-${++counter}-${Math.random().toString(36).slice(2)}`);

  ports.onMessage((raw) => {
    const message = raw as BackgroundToHostMessage | null;
    if (typeof message !== 'object' || message === null) return;
    if (message.type === 'bridge:tools-changed') for (const listener of listeners) listener(message.tabId);
    if (message.type === 'bridge:call-state') stateHandlers.get(message.requestId)?.({ state: message.state, prompt: message.prompt });
  });

  return {
    async getTools(tabId) {
      const snapshot = (await ports.sendMessage({ type: 'bridge:get-tools', tabId })) as TabToolSnapshot | undefined;
      return snapshot ?? { tabId, tools: [], page: {} };
    },
    async callTool(tabId, call, options = {}) {
      if (options.signal?.aborted) return toolErrorOutput('cancelled', 'The call was cancelled before it started.');
      const requestId = newId();
      if (options.onState) stateHandlers.set(requestId, options.onState);
      const keepalive = setInterval(() => void ports.sendMessage({ type: 'bridge:keepalive' }).catch(() => undefined), ports.keepaliveMs ?? 20_000);
      const cancelled = new Promise<ToolOutput>((resolve) => {
        options.signal?.addEventListener(
          'abort',
          () => {
            void ports.sendMessage({ type: 'bridge:cancel-call', requestId }).catch(() => undefined);
            resolve(toolErrorOutput('cancelled', `"${call.name}" was cancelled; the page was told (toolcancel).`));
          },
          { once: true },
        );
      });
      const answered = ports.sendMessage({ type: 'bridge:call-tool', tabId, call, requestId, ...(options.expect ? { expect: options.expect } : {}) }).then(
        (output) =>
          isToolOutput(output) ? output : toolErrorOutput('frame_gone', 'The extension background answered without a result.'),
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

function isToolOutput(value: unknown): value is ToolOutput {
  return typeof value === 'object' && value !== null && Array.isArray((value as ToolOutput).content);
}
