import type { AssistantModelMessage, ModelMessage, ToolModelMessage } from 'ai';
import type { AgentMessage, AgentPart, ProviderMetadata } from '../agent/types';
import { createSpotlight, type Spotlight } from '../page-data/spotlight';
import { toProviderToolName } from './to-provider-tool-name';
import { toToolResultOutput } from './to-tool-result-output';
import { isRecord } from '../shared/is-record';

type AssistantContentPart = Exclude<AssistantModelMessage['content'], string>[number];
type ToolResultContentPart = ToolModelMessage['content'][number];
type ProviderOptions = NonNullable<Extract<AssistantContentPart, { type: 'reasoning' }>['providerOptions']>;

/** How results are marked as page data. */
interface ToModelMessagesOptions {
  /** The run's delimiter for tool results (spotlighting). Default: a fresh one. */
  spotlight?: Spotlight;
  /** Whether a tool (by page name) is marked untrustedContentHint. */
  isUntrusted?: (pageName: string) => boolean;
}

/** Said to the model of a call whose run ended before it finished (the provider needs a result for every call). */
const UNFINISHED = 'Error: the call did not finish.';

/**
 * The stored conversation as AI SDK model messages, for the next request.
 *
 * Reasoning and tool calls keep their provider metadata as provider options, so what the provider needs back
 * goes back: Anthropic's thinking signatures (it refuses tool results whose turn lost its signed thinking),
 * OpenAI Responses' reasoning item ids. Each assistant turn's tool calls are followed by a tool message with
 * every call's result: the page's output, or the error text, as page data in the run's delimiter
 * (spotlighting); calls that never finished get an error result,
 * since providers reject a call without one. Text after tool calls in the same assistant message starts a new
 * assistant turn after the results, as it happened. Tool names become the provider's names through
 * `toProviderName` (the current tool set's mapping), and call ids made elsewhere (the on-device model, another
 * provider) become ids every provider accepts.
 */
export function toModelMessages(
  messages: readonly AgentMessage[],
  toProviderName: (pageName: string) => string = (name) => toProviderToolName(name),
  options: ToModelMessagesOptions = {},
): ModelMessage[] {
  const spotlight = options.spotlight ?? createSpotlight();
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const text = message.parts
        .filter((part): part is Extract<AgentPart, { type: 'text' }> => part.type === 'text')
        .map((part) => part.text)
        .join('\n\n');
      if (text.trim() !== '') out.push({ role: 'user', content: text });
      continue;
    }
    let content: AssistantContentPart[] = [];
    let results: ToolResultContentPart[] = [];
    const flush = () => {
      if (content.length > 0) out.push({ role: 'assistant', content });
      if (results.length > 0) out.push({ role: 'tool', content: results });
      content = [];
      results = [];
    };
    for (const part of message.parts) {
      if (part.type === 'text') {
        if (part.text === '') continue;
        if (results.length > 0) flush();
        content.push({ type: 'text', text: part.text });
      } else if (part.type === 'reasoning') {
        if (results.length > 0) flush();
        content.push({ type: 'reasoning', text: part.text, ...providerOptionsOf(part.providerMetadata) });
      } else if (part.type === 'tool') {
        const toolName = toProviderName(part.name);
        content.push({
          type: 'tool-call',
          toolCallId: safeCallId(part.id),
          toolName,
          input: isRecord(part.input) ? part.input : {},
          ...providerOptionsOf(part.providerMetadata),
        });
        const source = { tool: toolName, untrusted: options.isUntrusted?.(part.name) === true };
        results.push({
          type: 'tool-result',
          toolCallId: safeCallId(part.id),
          toolName,
          output:
            part.state === 'done'
              ? toToolResultOutput(part.output ?? { content: [] }, spotlight, source)
              : { type: 'error-text', value: spotlight.wrap(part.error ?? UNFINISHED, source) },
        });
      }
    }
    flush();
  }
  return out;
}

/**
 * A call id every provider accepts (Anthropic wants ^[a-zA-Z0-9_-]+$): ids from the on-device model or another
 * provider may hold other characters. The same id always maps the same way, so calls and results still pair.
 */
function safeCallId(id: string): string {
  const safe = String(id ?? '').replace(/[^a-zA-Z0-9_-]/g, '_');
  return safe === '' ? 'call' : safe;
}

function providerOptionsOf(metadata: ProviderMetadata | undefined): { providerOptions?: ProviderOptions } {
  if (!metadata || Object.keys(metadata).length === 0) return {};
  // Provider metadata is JSON that came from the provider's own response: it is its options' shape by design.
  return { providerOptions: metadata as ProviderOptions };
}
