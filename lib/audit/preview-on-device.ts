import { buildHistory, flattenHistory } from '../local-agent/build-history';
import { buildLocalSystemPrompt } from '../local-agent/build-local-system-prompt';
import { FIND_TOOLS_TOOL } from '../agent/find-tools';
import { inPageOrder } from '../local-agent/in-page-order';
import type { CallFormat, ChatTurn } from '../agent/local-provider';
import { rankTools, scoreTools } from '../agent/rank-tools';
import { LOCAL_LOOP_DEFAULTS } from '../local-agent/run-local-agent';
import { selectTools } from '../agent/select-tools';
import type { ToolDescriptor } from '../agent/types';
import { toTemplateTool } from '../local/to-template-messages';
import { createSpotlight } from '../page-data/spotlight';
import type { PreviewContext } from './audit-types';
import { type CompactionCut, describeCompaction } from './describe-compaction';
import { estimateTokens } from './estimate-tokens';

/** The nonce of the previews' delimiter: a real run makes a random one (lib/page-data/spotlight.ts). */
export const PREVIEW_NONCE = 'preview';

/** One tool of the page, as the on-device ranker placed it for the request. */
interface RankedTool {
  name: string;
  /** 1 for the best match. */
  rank: number;
  /** The ranker's score (0: no word of the request matches). */
  score: number;
  /** It is among the tools the model is shown. */
  shown: boolean;
}

/** What the on-device agent sends its model in the first step of a request. */
export interface OnDevicePreview {
  /** The page's tools shown, as the prompt holds them (compact, in the page's order). */
  tools: ToolDescriptor[];
  /** The search tool (find_tools) is offered after them: some of the agent's tools are left out. */
  search: boolean;
  /** Every tool the agent may use, best match first. */
  ranking: RankedTool[];
  /** What compaction took out of each shown tool, by name. */
  cuts: Record<string, CompactionCut[]>;
  /** The turns the engine gets: the system prompt, then the request. */
  messages: ChatTurn[];
  /** The tools as the chat template gets them; undefined when they are listed in the system prompt (toolsInline). */
  templateTools?: ReturnType<typeof toTemplateTool>[];
  /** The prompt's size, estimated (estimateTokens). */
  estimatedTokens: number;
  /** Most tools the loop shows. */
  maxTools: number;
}

/**
 * The on-device agent's first step for `request`, built by the loop's own functions (docs/architecture.md § The
 * on-device loop): the site's tool filter and delegate tools (selectTools), ranking and compaction (rankTools),
 * the page's order (inPageOrder), the system prompt (buildLocalSystemPrompt) and the history (buildHistory). The
 * one difference from a run: the tool-result delimiter's nonce is {@link PREVIEW_NONCE}, not a random one. When
 * the real prompt does not fit the model's context, the loop tries 4, 2 and 1 tools (the estimate here cannot tell).
 */
export function previewOnDevice(options: {
  tools: readonly ToolDescriptor[];
  request: string;
  context: PreviewContext;
  model: { toolsInline: boolean; callFormat: CallFormat };
  maxTools?: number;
}): OnDevicePreview {
  const { request, context, model } = options;
  const maxTools = options.maxTools ?? LOCAL_LOOP_DEFAULTS.maxTools;
  const available = selectTools(context.agent, options.tools);
  const ranked = rankTools(available, request, { max: maxTools });
  const shown = inPageOrder(ranked, available);
  const scores = scoreTools(available, request);
  const order = available.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  const shownNames = new Set(shown.map((t) => t.name));
  const ranking = order.map((i, at) => ({
    name: available[i].name,
    rank: at + 1,
    score: scores[i],
    shown: shownNames.has(available[i].name),
  }));
  // As the loop: the search tool goes after the page's tools when some are left out.
  const search = available.length > shown.length;
  const offered = search ? [...shown, FIND_TOOLS_TOOL] : shown;
  const cuts: Record<string, CompactionCut[]> = {};
  for (const tool of shown) {
    const original = available.find((t) => t.name === tool.name);
    if (original) cuts[tool.name] = describeCompaction(original, tool);
  }
  const spotlight = createSpotlight(PREVIEW_NONCE);
  const isUntrusted = (name: string) => available.some((t) => t.name === name && t.annotations?.untrustedContentHint === true);
  const history = buildHistory([{ id: 'request', role: 'user', parts: [{ type: 'text', text: request }] }], {
    callFormat: model.callFormat,
    spotlight,
    isUntrusted,
  });
  const messages: ChatTurn[] = [
    {
      role: 'system',
      content: buildLocalSystemPrompt({
        tools: offered,
        toolsInline: model.toolsInline,
        page: context.page,
        instructions: context.agent?.instructions,
        dataRule: spotlight.rule,
      }),
    },
    ...flattenHistory(history, model.callFormat),
  ];
  const templateTools = model.toolsInline ? undefined : offered.map(toTemplateTool);
  return {
    tools: shown,
    search,
    ranking,
    cuts,
    messages,
    ...(templateTools ? { templateTools } : {}),
    estimatedTokens: estimateTokens({ messages, tools: templateTools }),
    maxTools,
  };
}
