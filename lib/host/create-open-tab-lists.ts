/**
 * The task chooser's list of open tabs, kept current while its panel is open (docs/security.md, "Tasks across
 * tabs"). A tab the panel lists before the router names its site (a page still loading, or one whose bridge has not
 * reported yet) would otherwise stay "Cannot be added" until the person pressed *Refresh the list*; here the list is
 * described again, as an update of the panel's same `panel/list-tabs` ask, whenever the router's snapshot of a listed
 * tab changes. What a list says is only ever the router's snapshots (describe-open-tabs.ts); each panel Port has one
 * list, the one it asked for last.
 */
import type { OpenTab } from '../messaging/task-tabs';
import type { HostRouterClient } from './agent-host-deps';
import { describeOpenTabs } from './describe-open-tabs';

/** A panel's `panel/list-tabs`. */
interface OpenTabListRequest {
  tabId: number;
  tabIds: number[];
}

export interface OpenTabLists {
  /**
   * Sends the description of the listed tabs through `send` now (resolving once sent), and again whenever a listed
   * tab's snapshot changes, until `owner` (a panel's Port) lists again or is forgotten.
   */
  list(owner: object, request: OpenTabListRequest, send: (tabs: OpenTab[]) => void): Promise<void>;
  /** The owner's list is no longer kept (its Port closed; with `send`, only while that list is still its newest). */
  forget(owner: object, send?: (tabs: OpenTab[]) => void): void;
}

interface LiveList {
  request: OpenTabListRequest;
  send: (tabs: OpenTab[]) => void;
  /** The answers in order: a slow description never lands after a newer one. */
  sent: Promise<void>;
  /** A change came and its description has not started yet: the next changes ride along with it. */
  queued: boolean;
}

/**
 * Creates the lists.
 *
 * @param bridge The router's snapshots, and its changes (a tab read once is watched, so its changes come).
 */
export function createOpenTabLists(bridge: Pick<HostRouterClient, 'getTools' | 'subscribe'>): OpenTabLists {
  const lists = new Map<object, LiveList>();

  const answer = (port: object, live: LiveList) => {
    live.sent = live.sent.then(async () => {
      live.queued = false;
      const tabs = await describeOpenTabs(bridge, live.request.tabIds);
      // Replaced by a newer request, or the panel went away, while the router answered.
      if (lists.get(port) !== live) return;
      live.send(tabs);
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
    list(owner, request, send) {
      const live: LiveList = { request, send, sent: Promise.resolve(), queued: false };
      lists.set(owner, live);
      return answer(owner, live);
    },
    forget(owner, send) {
      if (send === undefined || lists.get(owner)?.send === send) lists.delete(owner);
    },
  };
}
