import { dynamicTool, jsonSchema, type ToolSet } from 'ai';
import type { ToolCall, ToolDescriptor, ToolOutput } from '../agent/types';
import { describeToolForModel } from '../agent/describe-tool-for-model';
import { formatToolError } from '../agent/tool-error-codes';
import { toolOutputText } from '../agent/tool-output-text';
import { createSpotlight, type Spotlight } from '../page-data/spotlight';
import { validateArgs } from '../agent/validate-args';
import { cleanDescription, cleanSchema } from '../schema/clean-schema';
import { toProviderNames } from './to-provider-names';
import { toProviderToolName } from './to-provider-tool-name';
import { toToolResultOutput } from './to-tool-result-output';

/** The page's tools as an AI SDK tool set, with the way between page names and provider names. */
export interface PageToolSet {
  /** Keyed by provider-safe name. */
  tools: ToolSet;
  /** The page's name for a name the provider used; undefined for a name not in this set. */
  toPageName: (providerName: string) => string | undefined;
  /** The provider-safe name for a page tool name (also for tools no longer on the page, as history may hold). */
  toProviderName: (pageName: string) => string;
}

interface ToToolSetOptions {
  /**
   * Runs a call on the page (req.callTool). With it each tool gets an `execute`; without it the set only
   * describes the tools (for a caller that runs the tools itself).
   */
  callTool?: (call: ToolCall) => Promise<ToolOutput>;
  /** The run's delimiter for tool results (spotlighting); the system prompt names its tag. Default: a fresh one. */
  spotlight?: Spotlight;
}

/**
 * An error a page tool reported (an `isError` result, or arguments that do not fit its schema). Thrown from
 * `execute`, the AI SDK turns it into a tool-error part and sends its message back to the model.
 */
export class PageToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageToolError';
  }
}

/**
 * The page's tools as AI SDK tools. Descriptions lose control and invisible formatting characters (a page must
 * not hide text from the person that the model reads); schemas lose `$schema` and `$id` and always describe an
 * object; names become provider-safe ("cart.add" → "cart_add") and map back.
 *
 * With `callTool`, a call's arguments are first checked with validateArgs (the local loop's validator): a bad
 * call never reaches the page and goes back to the model as a tool error it can fix. Calls run one at a time
 * even if the model asks for several at once: one page, one cursor. A result with `isError` becomes a tool
 * error carrying the page's text. Results reach the model as page data in `spotlight`'s delimiter.
 */
export function toToolSet(tools: readonly ToolDescriptor[], options: ToToolSetOptions = {}): PageToolSet {
  const byProvider = new Map<string, ToolDescriptor>();
  const byPage = new Map<string, string>();
  const set: ToolSet = {};
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };

  const spotlight = options.spotlight ?? createSpotlight();
  const names = toProviderNames(tools);
  for (const descriptor of tools) {
    const providerName = descriptor && names.get(descriptor.name);
    if (!providerName || byProvider.has(providerName)) continue;
    byProvider.set(providerName, descriptor);
    byPage.set(descriptor.name, providerName);
    const { callTool } = options;
    set[providerName] = dynamicTool({
      description: describeToolForModel(cleanDescription(descriptor.description ?? descriptor.title ?? ''), descriptor.returns),
      inputSchema: jsonSchema(cleanSchema(descriptor.inputSchema) as Parameters<typeof jsonSchema>[0]),
      ...(callTool
        ? {
            execute: async (input: unknown, { toolCallId }: { toolCallId: string }) => {
              const verdict = validateArgs(descriptor.inputSchema, input);
              if (!verdict.ok) {
                throw new PageToolError(
                  formatToolError('invalid_input', `${verdict.message}. Fix the arguments and call ${providerName} again.`),
                );
              }
              const output = await oneAtATime(() => callTool({ id: toolCallId, name: descriptor.name, input }));
              if (output?.isError) throw new PageToolError(toolOutputText(output));
              return output;
            },
            toModelOutput: ({ output }: { output: unknown }) =>
              toToolResultOutput(output as ToolOutput, spotlight, {
                tool: providerName,
                untrusted: descriptor.annotations?.untrustedContentHint === true,
              }),
          }
        : {}),
    });
  }

  return {
    tools: set,
    toPageName: (providerName) => byProvider.get(providerName)?.name,
    toProviderName: (pageName) => byPage.get(pageName) ?? toProviderToolName(pageName),
  };
}
