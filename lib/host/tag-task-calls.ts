import type { CallTimeline } from '../call-log/call-timeline';

/**
 * Where an agent's call in a task across tabs was routed: the name the model called, the tab and site, and the
 * title of the page there when the call was routed (cleaned page text; absent when the page had none).
 */
export interface TaskCallRoute {
  name: string;
  tabId: number;
  site: string;
  title?: string;
}

/**
 * The conversation's timeline as the task's calls record into it: a call that was routed to a tab of the task is
 * recorded under the name the model called it by, with the tab, site and page title it ran on (the cards, the
 * timeline and the exports say where each call ran, as it was then); any other call is recorded as it is.
 *
 * @param timeline The conversation's timeline.
 * @param routeOf The route of a call id, when the task routed it.
 */
export function tagTaskCalls(timeline: CallTimeline, routeOf: (callId: string) => TaskCallRoute | undefined): CallTimeline {
  return {
    ...timeline,
    start(call) {
      const route = routeOf(call.id);
      if (!route) return timeline.start(call);
      const { tabId, site, title } = route;
      return timeline.start({ ...call, tool: route.name, tab: { tabId, site, ...(title ? { title } : {}) } });
    },
  };
}
