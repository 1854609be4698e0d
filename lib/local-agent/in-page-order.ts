import type { ToolDescriptor } from '../agent/types';

/**
 * The `selected` tools in the order the page lists them in `available` (tools the page no longer lists go last, in
 * their given order). Ranking picks which tools go into the prompt; keeping them in page order keeps the prompt's
 * tool part the same from step to step and turn to turn while the choice is the same, so the engine's KV cache of
 * the earlier prompt still fits the new one instead of re-reading it all.
 */
export function inPageOrder(selected: readonly ToolDescriptor[], available: readonly ToolDescriptor[]): ToolDescriptor[] {
  const position = new Map(available.map((tool, i) => [tool.name, i]));
  return selected
    .map((tool, i) => ({ tool, at: position.get(tool.name) ?? available.length + i }))
    .sort((a, b) => a.at - b.at)
    .map(({ tool }) => tool);
}
