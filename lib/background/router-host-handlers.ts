/**
 * What the agent host asks the tool router (create-tool-router.ts); only extension pages reach here (the
 * background checks the sender). A call's approval that cannot be read runs nothing.
 */
import { toolErrorOutput } from '../agent/tool-error-output';
import type { BackgroundToHostMessage, HostCallAnswer, RouterChannel } from '../messaging/router-messages';
import type { ChannelHandlers } from '../messaging/channel';
import { readExpectedTool } from '../messaging/expected-tool';
import type { TabToolSnapshot } from '../messaging/tab-tool-snapshot';
import type { RouterClient } from '../messaging/router-client';

/** What the handlers need: the router as a RouterClient, the tab's snapshot, and the host's ear. */
interface RouterHostDeps {
  router: Pick<RouterClient, 'getTools' | 'callTool'>;
  snapshot(tabId: number): Promise<TabToolSnapshot>;
  notifyHost?(message: BackgroundToHostMessage): void;
}

/** The handlers of router/…, with the host's running calls (by its requestId) so it can cancel them. */
export function routerHostHandlers(deps: RouterHostDeps): ChannelHandlers<RouterChannel> {
  const { router, snapshot } = deps;
  const hostCalls = new Map<string, AbortController>();
  return {
    'router/get-tools': (message) => router.getTools(message.tabId),
    'router/call-tool': (message) => {
      const expect = message.expect === undefined ? undefined : readExpectedTool(message.expect);
      if (message.expect !== undefined && !expect) {
        const output = toolErrorOutput('tool_changed', `The approval of "${message.call?.name}" could not be read. Nothing was run.`);
        return snapshot(message.tabId).then((after) => ({ output, snapshot: after }));
      }
      const controller = new AbortController();
      hostCalls.set(message.requestId, controller);
      return (
        router
          .callTool(message.tabId, message.call, {
            signal: controller.signal,
            ...(expect ? { expect } : {}),
            onState: (state) => deps.notifyHost?.({ type: 'host/call-state', requestId: message.requestId, ...state }),
          })
          // The tools after the call come with its answer: the host's next step needs them, and asks nothing.
          .then(async (output): Promise<HostCallAnswer> => ({ output, snapshot: await snapshot(message.tabId) }))
          .finally(() => hostCalls.delete(message.requestId))
      );
    },
    'router/keepalive': () => true,
    'router/cancel-call': (message) => {
      hostCalls.get(message.requestId)?.abort();
      return true;
    },
  };
}
