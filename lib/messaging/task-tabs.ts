/**
 * The shapes of a task that spans tabs (docs/security.md, "Tasks across tabs"), as the agent host and the side panel
 * both read them: the tabs the person added to a conversation, a tab that left it, and one crossing between sites
 * the person may allow for the task.
 */

/** A tab the person added to a conversation, and the top-level site it showed when added (the router's, never a URL the panel sent). */
export interface TaskTab {
  tabId: number;
  site: string;
}

/** Why a tab left the task. */
export type TaskLeaveReason = 'moved' | 'closed' | 'crashed' | 'removed';

/** A tab that left the task, for the panel's note ("<site> left the task: …"). */
export interface TaskTabLeft extends TaskTab {
  reason: TaskLeaveReason;
  /** The note, in words. */
  message: string;
}

/** One crossing between sites: what was read on `from` would go to a tool of `to`. */
export interface TaskFlow {
  from: string;
  to: string;
}

/**
 * An open tab as the task chooser lists it (`panel/list-tabs`): what the router's snapshot names for its top page,
 * never what a page or the panel claims. `site` is absent while the router names none (loading, a browser page):
 * such a tab cannot be added. `title` is page text.
 */
export interface OpenTab {
  tabId: number;
  site?: string;
  title?: string;
  /** The WebMCP tools the router knows of in the tab now. */
  toolCount: number;
}
