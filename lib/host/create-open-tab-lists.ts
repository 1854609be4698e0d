/**
 * The task chooser's list of open tabs, kept current while its panel is open (docs/security.md, "Tasks across
 * tabs"). A tab the panel lists before the router names its site (a page still loading, or one whose bridge has not
 * reported yet) would otherwise stay "Cannot be added" until the person pressed *Refresh the list*; here the list is
 * described again, under the panel's same request id, whenever the router's snapshot of a listed tab changes. What a
 * list says is only ever the router's snapshots (describe-open-tabs.ts); each panel Port has one list, the one it
 * asked for last.
 */
import type { HostEvent } from '../messaging/agent-messages';
import type { HostPort, HostToolBridge } from './agent-host-deps';
import { describeOpenTabs } from './describe-open-tabs';

/** A panel's `panel/list-tabs`. */
interface OpenTabListRequest {
  tabId: number;
  requestId: string;
  tabIds: number[];
}

interface OpenTabLists {
  /** Answers the request on `port` now, and again whenever a listed tab's snapshot changes, until replaced. */
  list(port: HostPort, request: OpenTabListRequest): Promise<void>;
  /** The Port closed: its list is no longer kept. */
  forget(port: HostPort): void;
}

interface LiveList {
  request: OpenTabListRequest;
  /** The answers in order: a slow description never lands after a newer one. */
  sent: Promise<void>;
  /** A change came and its description has not started yet: the next changes ride along with it. */
  queued: boolean;
}

/**
 * Creates the lists.
 *
 * @param bridge The router's snapshots, and its changes (a tab read once is watched, so its changes come).
 * @param post Posts one event to one Port.
 */
export function createOpenTabLists(
  bridge: Pick<HostToolBridge, 'getTools' | 'subscribe'>,
  post: (port: HostPort, event: HostEvent) => void,
): OpenTabLists {
  const lists = new Map<HostPort, LiveList>();

  const answer = (port: HostPort, live: LiveList) => {
    live.sent = live.sent.then(async () => {
      live.queued = false;
      const tabs = await describeOpenTabs(bridge, live.request.tabIds);
      // Replaced by a newer request, or the panel went away, while the router answered.
      if (lists.get(port) !== live) return;
      post(port, { type: 'panel/open-tabs', tabId: live.request.tabId, requestId: live.request.requestId, tabs });
    });
    return live.sent;
  };

  bridge.subscribe((changedTabId) => {
    for (const [port, live] of lists) {
      if (live.queued || !live.request.tabIds.includes(changedTabId)) continue;
      live.queued = true;
      void answer(port, live);
    }
  });

  return {
    list(port, request) {
      const live: LiveList = { request, sent: Promise.resolve(), queued: false };
      lists.set(port, live);
      return answer(port, live);
    },
    forget(port) {
      lists.delete(port);
    },
  };
}
