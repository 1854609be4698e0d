/**
 * What the agent host asks the tool router (create-tool-router.ts) on the router's line (set-up-router-lines.ts,
 * which takes the line's Port only from the extension's own pages). A call's cancel is the line's: its signal
 * aborts, and with it the call in the page; a call's wait for the person is an update of its ask. A call's approval
 * that cannot be read runs nothing.
 */
import { toolErrorOutput } from '../agent/tool-error-output';
import type { LineHandlers } from '../messaging/create-request-line';
import { readExpectedTool } from '../messaging/expected-tool';
import type { RouterClient } from '../messaging/router-client';
import type { HostCallAnswer, RouterLine } from '../messaging/router-messages';
import type { TabToolSnapshot } from '../messaging/tab-tool-snapshot';

/** What the handlers need: the router as a RouterClient, and the tab's snapshot. */
interface RouterHostDeps {
  router: Pick<RouterClient, 'getTools' | 'callTool'>;
  snapshot(tabId: number): Promise<TabToolSnapshot>;
}

/** The handlers of the router's line. */
export function routerHostHandlers(deps: RouterHostDeps): LineHandlers<RouterLine> {
  const { router, snapshot } = deps;
  return {
    'router/get-tools': (request) => router.getTools(request.tabId),
    'router/call-tool': async (request, context): Promise<HostCallAnswer> => {
      const expect = request.expect === undefined ? undefined : readExpectedTool(request.expect);
      if (request.expect !== undefined && !expect) {
        const output = toolErrorOutput('tool_changed', `The approval of "${request.call?.name}" could not be read. Nothing was run.`);
        return { output, snapshot: await snapshot(request.tabId) };
      }
      const output = await router.callTool(request.tabId, request.call, {
        signal: context.signal,
        ...(expect ? { expect } : {}),
        onState: (state) => context.update(state),
      });
      // The tools after the call come with its answer: the host's next step needs them, and asks nothing.
      return { output, snapshot: await snapshot(request.tabId) };
    },
  };
}
