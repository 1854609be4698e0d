/**
 * The name of the extension's search tool (lib/agent/find-tools.ts), which the agent loop runs itself and never sends
 * to a page. Kept apart from the search so that the tab's naming (background) can reserve it without the ranker.
 */
export const FIND_TOOLS_NAME = 'find_tools';

/**
 * Whether `name` is the search tool's name as a model or a page may spell it: any case, `-` for `_`. A page tool of
 * such a name is renamed (toModelFacingNames) or dropped (selectTools), and never runs under it (isToolOffered).
 */
export function isFindToolsName(name: unknown): boolean {
  return typeof name === 'string' && name.toLowerCase().replace(/-/g, '_') === FIND_TOOLS_NAME;
}
