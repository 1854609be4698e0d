import { selectTools } from '../agent/select-tools';
import type { JSONSchema, ToolDescriptor } from '../agent/types';
import { buildCloudSystemPrompt, DEFAULT_SYSTEM_PROMPT, hasSubAgents, pageLine } from '../cloud/build-cloud-system-prompt';
import { cleanDescription, cleanSchema } from '../schema/clean-schema';
import { toProviderNames } from '../cloud/to-provider-names';
import { createSpotlight } from '../page-data/spotlight';
import type { PreviewContext } from './audit-types';
import { PREVIEW_NONCE } from './preview-on-device';

/** One tool as the cloud adapter hands it to the AI SDK, which sends the provider this name, description and schema. */
interface CloudTool {
  /** The provider-safe name the model calls it by. */
  name: string;
  /** The page's own name for the tool, when the model calls it by another. */
  pageName?: string;
  description: string;
  inputSchema: JSONSchema;
}

/** What the cloud adapter sends in the first step of a request. */
export interface CloudPreview {
  system: string;
  tools: CloudTool[];
  messages: { role: 'user'; content: string }[];
}

/**
 * The cloud adapter's first step for `request`, built by its own functions (lib/cloud/create-cloud-adapter.ts): every
 * tool the site's agent may use (no ranking: cloud models get them all) with provider-safe names, cleaned
 * descriptions and schemas (to-tool-set.ts), and the system prompt (buildCloudSystemPrompt with the page line and
 * the site's instructions). As in previewOnDevice, the delimiter's nonce is the preview's, not a random one.
 */
export function previewCloud(options: { tools: readonly ToolDescriptor[]; request: string; context: PreviewContext }): CloudPreview {
  const { context } = options;
  const tools = selectTools(context.agent, options.tools);
  const names = toProviderNames(tools);
  const seen = new Set<string>();
  const cloudTools: CloudTool[] = [];
  for (const tool of tools) {
    const name = names.get(tool.name);
    if (!name || seen.has(name)) continue;
    seen.add(name);
    const pageName = (tool as { originalName?: string }).originalName ?? tool.name;
    cloudTools.push({
      name,
      ...(name !== pageName ? { pageName } : {}),
      description: cleanDescription(tool.description ?? tool.title ?? ''),
      inputSchema: cleanSchema(tool.inputSchema),
    });
  }
  const spotlight = createSpotlight(PREVIEW_NONCE);
  return {
    system: buildCloudSystemPrompt(
      DEFAULT_SYSTEM_PROMPT,
      pageLine(context.page),
      context.agent?.instructions,
      hasSubAgents(tools),
      spotlight.rule,
    ),
    tools: cloudTools,
    messages: [{ role: 'user', content: options.request }],
  };
}
