/**
 * The search step in cloud mode (lib/agent/find-tools.ts; docs/architecture.md § The search step): a run with more
 * tools than {@link CLOUD_MAX_TOOLS} (a task of many tabs) offers the cloud model the ones the ranker puts first for
 * the request, plus `find_tools`, which the adapter runs itself over the run's tools; what it finds is offered from
 * the next step on. Providers cap a request's tools (OpenAI at 128), and every tool offered costs the person tokens.
 */
import { dynamicTool, jsonSchema, type Tool } from 'ai';
import {
  FIND_TOOLS_TOOL,
  foundToolsLimit,
  MAX_SEARCHES_PER_TURN,
  runToolSearch,
  type ToolSearchState,
  topRanked,
  withFoundTools,
} from '../agent/find-tools';
import type { ToolDescriptor, ToolOutput } from '../agent/types';
import type { Spotlight } from '../page-data/spotlight';
import { toToolResultOutput } from './to-tool-result-output';
import { PageToolError } from './to-tool-set';
import { toolOutputText } from '../agent/tool-output-text';

/** Most page tools one cloud step offers; past it, the rest are found by searching. */
export const CLOUD_MAX_TOOLS = 48;

/** What one cloud step offers. */
interface CloudOffer {
  /** The page's tools offered, as the page gave them. */
  tools: ToolDescriptor[];
  /** Whether the search tool goes beside them: some tools are left out and searches are left. */
  search: boolean;
}

/**
 * The page's tools a cloud step offers: all of them up to `max`; past it, the `max` the ranker puts first for
 * `request` taking turns with what the last search found (withFoundTools), and the search tool.
 */
export function offerCloudTools(
  available: readonly ToolDescriptor[],
  request: string,
  search: ToolSearchState,
  max: number = CLOUD_MAX_TOOLS,
): CloudOffer {
  if (available.length <= max) return { tools: [...available], search: false };
  const tools = withFoundTools(topRanked(available, request, max), search.found, available, max, { compact: false });
  return { tools, search: search.count < MAX_SEARCHES_PER_TURN };
}

/**
 * The search tool as an AI SDK tool: it runs in the adapter over `available` (the run's tools, which the host chose),
 * never on a page, counts against the request's searches, and its result reaches the model as page data (the found
 * tools' names and descriptions are the pages' words).
 */
export function findToolsTool(
  search: ToolSearchState,
  available: readonly ToolDescriptor[],
  offered: readonly ToolDescriptor[],
  spotlight: Spotlight,
  max: number = CLOUD_MAX_TOOLS,
): Tool {
  return dynamicTool({
    description: FIND_TOOLS_TOOL.description,
    inputSchema: jsonSchema(FIND_TOOLS_TOOL.inputSchema as Parameters<typeof jsonSchema>[0]),
    execute: async (input: unknown) => {
      const output = runToolSearch(search, available, input, {
        offered: offered.map((t) => t.name),
        max: foundToolsLimit(max),
      });
      if (output.isError) throw new PageToolError(toolOutputText(output));
      return output;
    },
    toModelOutput: ({ output }: { output: unknown }) => toToolResultOutput(output as ToolOutput, spotlight, { tool: FIND_TOOLS_TOOL.name }),
  });
}
