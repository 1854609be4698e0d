import { isStepCount, type ModelMessage, streamText, type ToolResultPart } from 'ai';
import { gistOfResult } from '../agent/gist-of-result';
import { LOCAL_AGENT_MESSAGES } from '../agent/local-agent-messages';
import { createDelegation } from '../agent/create-delegation';
import { rememberToolSearch, type ToolSearchState } from '../agent/find-tools';
import { FIND_TOOLS_NAME, isFindToolsName } from '../agent/find-tools-name';
import { selectTools } from '../agent/select-tools';
import { STOPPED_CALL_ERROR, UNFINISHED_CALL_ERROR } from '../agent/reduce-stream-part';
import { formatToolError } from '../agent/tool-error-codes';
import { toolOutputText } from '../agent/tool-output-text';
import type {
  AdapterStatus,
  AgentAdapter,
  AgentRunRequest,
  AgentStreamPart,
  ProviderMetadata,
  ToolDescriptor,
  ToolOutput,
} from '../agent/types';
import { createSpotlight, type Spotlight } from '../page-data/spotlight';
import { findToolsTool, offerCloudTools } from './cloud-tool-search';
import { buildCloudSystemPrompt, DEFAULT_SYSTEM_PROMPT, hasSubAgents, pageLine } from './build-cloud-system-prompt';
import { type CloudDeps, type CloudSettings, cloudModelName, DEFAULT_CLOUD_MAX_STEPS } from './cloud-settings';
import { mapCloudError, redactKey } from './map-cloud-error';
import { normalizeBaseURL, type ResolvedModel, resolveModel } from './resolve-model';
import { toModelMessages } from './to-model-messages';
import { toToolResultOutput } from './to-tool-result-output';
import { type PageToolSet, toToolSet } from './to-tool-set';

/** Most steps a run may be given, whatever the settings say: a runaway loop spends the person's money. */
const MAX_STEPS_CAP = 100;

/**
 * Cloud mode: an AgentAdapter that runs the page's tools through the AI SDK with the person's own key, and
 * yields exactly the parts the local adapter yields, so the panel cannot tell them apart.
 *
 * Each model step is one `streamText` call (`isStepCount(1)`), because the page's tools are a getter that
 * changes as the page changes: every step reads `req.tools` afresh. A step opens a new assistant message
 * (message-start), streams text-delta, yields each finished reasoning block as one reasoning part with its
 * provider metadata, then tool-call and tool-result / tool-error for each call (run one at a time through
 * `req.callTool`), then step-finish. Within a run the provider's own response messages are appended unchanged;
 * across runs the stored conversation carries reasoning and tool provider metadata (toModelMessages), so
 * Anthropic's signed thinking and OpenAI's reasoning items go back with the next request.
 *
 * The run ends with finish "stop" (a step without tool calls), "max-steps" (the step budget spent while the
 * model still wanted tools: the SDK has no such reason, so it is inferred, and said in the last step's message
 * with the local loop's words and the gist of the last result), or
 * "aborted" (Stop; calls still open get `Error [cancelled]`), or with error and a code (mapCloudError).
 */
export function createCloudAdapter(settings: CloudSettings, deps: CloudDeps): AgentAdapter {
  // The provider's model, made once per adapter (the registry builds a new adapter when the settings change): making
  // it builds the provider's response schemas, about a millisecond of the run's start on every message otherwise.
  let resolved: { model: ResolvedModel } | { error: Error } | undefined;
  const model = (): ResolvedModel => {
    resolved ??= resolveOnce(settings, deps);
    if ('error' in resolved) throw resolved.error;
    return resolved.model;
  };
  return {
    id: 'cloud',
    label: `${settings.model || 'Cloud model'} (cloud)`,
    status: () => cloudStatus(settings),
    run: (req) => runCloud(settings, deps, req, model),
  };
}

/** The settings' model, or why there is none. */
function resolveOnce(settings: CloudSettings, deps: CloudDeps): { model: ResolvedModel } | { error: Error } {
  try {
    return { model: resolveModel(cloudModelName(settings), settings, deps) };
  } catch (error) {
    return { error: error as Error };
  }
}

/** Whether these settings can run: a key (except for local OpenAI-compatible servers), a model, a usable URL. */
export function cloudStatus(settings: CloudSettings): AdapterStatus {
  if (!settings.model?.trim()) return { state: 'unavailable', reason: "Choose a model in the extension's options page." };
  if (settings.provider !== 'openai-compatible' && !settings.apiKey?.trim()) {
    const who = settings.provider === 'anthropic' ? 'Anthropic' : 'OpenAI';
    return { state: 'unavailable', reason: `Add your ${who} API key in the extension's options page.` };
  }
  try {
    normalizeBaseURL(settings.baseURL, settings.provider);
  } catch (error) {
    return { state: 'unavailable', reason: (error as Error).message };
  }
  return { state: 'ready' };
}

async function* runCloud(
  settings: CloudSettings,
  deps: CloudDeps,
  req: AgentRunRequest,
  model: () => ResolvedModel,
): AsyncGenerator<AgentStreamPart> {
  const generateId = deps.generateId ?? (() => crypto.randomUUID());
  let resolved: ResolvedModel;
  try {
    resolved = model();
  } catch (error) {
    yield { type: 'error', error: redactKey((error as Error).message, settings.apiKey) };
    return;
  }
  const context = { provider: resolved.provider, baseURL: resolved.baseURL, apiKey: settings.apiKey };
  const maxSteps = stepBudget(req.agent?.maxSteps ?? settings.maxSteps);
  let history: ModelMessage[] | undefined;
  // Tool results reach the model as page data in this run's delimiter, which the system prompt names.
  const spotlight = createSpotlight();
  let lastResult = '';
  let lastMessageId = '';
  // delegate_to_<id> calls run the sub-agent's own cloud loop as a nested run, its parts merged into this stream.
  const delegation = createDelegation(req, (nested) => runCloud(settings, deps, nested, model));
  // The search step (cloud-tool-search.ts): a run of very many tools offers the request's best and a search.
  const search: ToolSearchState = { count: 0, found: [] };
  const request = lastUserText(req.messages);
  // On Retry, the searches already made for this request count, and what they found is offered again.
  for (const part of partsSinceLastUser(req.messages)) {
    if (part.type === 'tool' && isFindToolsName(part.name) && part.state === 'done') rememberToolSearch(search, part.output);
  }

  for (let step = 1; step <= maxSteps; step++) {
    if (req.signal.aborted) {
      yield { type: 'finish', reason: 'aborted' };
      return;
    }
    const available = selectTools(req.agent, req.tools, req.delegationDepth);
    const offer = offerCloudTools(available, request, search);
    const tools = offer.tools;
    const toolSet = toToolSet(tools, { callTool: delegation.callTool, spotlight });
    // selectTools leaves no page tool of this name; a provider name made from one would not be replaced.
    if (offer.search && !(FIND_TOOLS_NAME in toolSet.tools)) {
      toolSet.tools[FIND_TOOLS_NAME] = findToolsTool(search, available, tools, spotlight);
    }
    history ??= toModelMessages(req.messages, toolSet.toProviderName, { spotlight, isUntrusted: (name) => isUntrusted(available, name) });
    const messageId = generateId();
    lastMessageId = messageId;
    yield { type: 'message-start', messageId };

    const open = new Set<string>();
    const errorTexts = new Map<string, string>();
    const lateOutputs = new Map<string, ToolResultOutput>();
    const reasoning = new Map<string, { text: string; providerMetadata?: ProviderMetadata }>();
    let calls = 0;
    let started = false;
    let aborted = false;
    let failure: { error: unknown } | undefined;
    let responseMessages: ModelMessage[] = [];
    try {
      const result = streamText({
        model: resolved.model,
        instructions: buildCloudSystemPrompt(
          DEFAULT_SYSTEM_PROMPT,
          pageLine(req.page),
          req.agent?.instructions,
          hasSubAgents(tools),
          spotlight.rule,
        ),
        messages: history,
        tools: toolSet.tools,
        toolCallConcurrency: 1,
        stopWhen: isStepCount(1),
        abortSignal: req.signal,
        maxRetries: deps.maxRetries ?? 2,
        ...(settings.maxOutputTokens ? { maxOutputTokens: settings.maxOutputTokens } : {}),
        ...(settings.reasoning ? { reasoning: settings.reasoning } : {}),
        // The SDK's default logs errors to the console; they are reported as parts instead.
        onError: () => {},
      });
      for await (const part of delegation.merge(result.stream, (p) => (p.type === 'tool-call' ? p.toolCallId : undefined))) {
        if (part.type === 'agent-part') {
          yield part;
          continue;
        }
        switch (part.type) {
          case 'text-delta':
            started = true;
            if (part.text) yield { type: 'text-delta', messageId, delta: part.text };
            break;
          case 'reasoning-start':
            started = true;
            reasoning.set(part.id, { text: '', providerMetadata: mergeMetadata(undefined, part.providerMetadata) });
            break;
          case 'reasoning-delta': {
            const block = reasoning.get(part.id) ?? { text: '' };
            block.text += part.text;
            block.providerMetadata = mergeMetadata(block.providerMetadata, part.providerMetadata);
            reasoning.set(part.id, block);
            break;
          }
          case 'reasoning-end': {
            const block = reasoning.get(part.id) ?? { text: '' };
            reasoning.delete(part.id);
            const providerMetadata = mergeMetadata(block.providerMetadata, part.providerMetadata);
            yield { type: 'reasoning', messageId, text: block.text, ...(providerMetadata ? { providerMetadata } : {}) };
            break;
          }
          case 'tool-call': {
            started = true;
            calls++;
            open.add(part.toolCallId);
            const providerMetadata = part.providerMetadata as ProviderMetadata | undefined;
            yield {
              type: 'tool-call',
              messageId,
              id: part.toolCallId,
              name: toolSet.toPageName(part.toolName) ?? part.toolName,
              input: part.input,
              ...(providerMetadata ? { providerMetadata } : {}),
            };
            break;
          }
          case 'tool-result':
            if (!open.delete(part.toolCallId)) break;
            lastResult = toolOutputText(part.output as ToolOutput);
            yield { type: 'tool-result', id: part.toolCallId, output: part.output as ToolOutput };
            break;
          case 'tool-error': {
            if (!open.delete(part.toolCallId)) break;
            if (isNoSuchTool(part.error)) {
              // Not in this step's set, but perhaps on the page in a moment (a route's tools arrive after the call
              // that changed the route): the host waits for it, runs it if it comes, or answers unknown_tool.
              const pageName = toolSet.toPageName(part.toolName) ?? part.toolName;
              const output = await req.callTool({ id: part.toolCallId, name: pageName, input: part.input });
              if (output?.isError) {
                const error = redactKey(toolOutputText(output), settings.apiKey);
                errorTexts.set(part.toolCallId, error);
                lastResult = error;
                yield { type: 'tool-error', id: part.toolCallId, error };
              } else {
                // Read fresh: the tool arrived after this step's set was made.
                const untrusted = req.tools.some((t) => t.name === pageName && t.annotations?.untrustedContentHint === true);
                lateOutputs.set(part.toolCallId, toToolResultOutput(output, spotlight, { tool: pageName, untrusted }));
                lastResult = toolOutputText(output);
                yield { type: 'tool-result', id: part.toolCallId, output };
              }
              break;
            }
            const error = toolErrorText(part.error, part.toolName, toolSet, settings.apiKey);
            errorTexts.set(part.toolCallId, error);
            lastResult = error;
            yield { type: 'tool-error', id: part.toolCallId, error };
            break;
          }
          case 'abort':
            aborted = true;
            break;
          case 'error':
            failure ??= { error: part.error };
            break;
        }
      }
      if (!aborted && !failure && !req.signal.aborted) responseMessages = (await result.response).messages;
    } catch (error) {
      failure ??= { error };
    }

    if (aborted || req.signal.aborted) {
      for (const id of open) yield { type: 'tool-error', id, error: STOPPED_CALL_ERROR };
      yield { type: 'finish', reason: 'aborted' };
      return;
    }
    if (failure) {
      for (const id of open) yield { type: 'tool-error', id, error: UNFINISHED_CALL_ERROR };
      yield { type: 'error', ...mapCloudError(failure.error, { ...context, midStream: started }) };
      return;
    }
    history.push(
      ...withLateOutputs(
        withErrorTexts(responseMessages, errorTexts, spotlight, (name) => isUntrusted(available, toolSet.toPageName(name) ?? name)),
        lateOutputs,
      ),
    );
    yield { type: 'step-finish', step };
    if (calls === 0) {
      yield { type: 'finish', reason: 'stop' };
      return;
    }
  }

  // As the local loop does: the last step's message says what was found and that the budget ran out.
  yield { type: 'text-delta', messageId: lastMessageId, delta: LOCAL_AGENT_MESSAGES.maxSteps(maxSteps, gistOfResult(lastResult)) };
  yield { type: 'finish', reason: 'max-steps' };
}

/** The person's request: the last user message's text. */
function lastUserText(messages: AgentRunRequest['messages']): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role !== 'user') continue;
    const text = messages[i].parts
      .map((p) => (p.type === 'text' ? p.text : ''))
      .join('')
      .trim();
    if (text) return text;
  }
  return '';
}

/** The parts of the messages after the last user message (the request's calls so far, on Retry). */
function partsSinceLastUser(messages: AgentRunRequest['messages']): AgentRunRequest['messages'][number]['parts'] {
  let at = messages.length;
  while (at > 0 && messages[at - 1].role !== 'user') at--;
  return messages.slice(at).flatMap((m) => m.parts);
}

function stepBudget(requested: number | undefined): number {
  if (typeof requested !== 'number' || !Number.isFinite(requested) || requested < 1) return DEFAULT_CLOUD_MAX_STEPS;
  return Math.min(Math.floor(requested), MAX_STEPS_CAP);
}

/** "/cart (“Your cart”)": the page line of the system prompt. */
/** Whether the tool with this page name is marked untrustedContentHint. */
function isUntrusted(tools: readonly ToolDescriptor[], pageName: string): boolean {
  return tools.some((tool) => tool.name === pageName && tool.annotations?.untrustedContentHint === true);
}

/** Later metadata wins per provider key, merged field by field (Anthropic's signature arrives in the last delta). */
function mergeMetadata(
  into: ProviderMetadata | undefined,
  from: Record<string, Record<string, unknown>> | undefined,
): ProviderMetadata | undefined {
  if (!from) return into;
  const out: ProviderMetadata = { ...(into ?? {}) };
  for (const [provider, values] of Object.entries(from)) out[provider] = { ...(out[provider] ?? {}), ...values };
  return out;
}

/**
 * A tool error as the panel shows it and the model reads it: the page's text, or for a call the SDK refused
 * (an unknown tool, arguments that are not JSON) the same `Error [code]: …` the page bridge would write.
 */
function toolErrorText(error: unknown, toolName: string, toolSet: PageToolSet, apiKey: string): string {
  // The SDK reports calls it refused as strings starting with the error's name, others as the thrown Error.
  const name =
    typeof error === 'string'
      ? /^(AI_\w+):/.exec(error)?.[1]
      : typeof error === 'object' && error !== null
        ? (error as { name?: unknown }).name
        : undefined;
  if (name === 'AI_NoSuchToolError') {
    const available = Object.keys(toolSet.tools).join(', ') || 'none';
    return formatToolError('unknown_tool', `no tool is named "${toolName}". Available tools: ${available}.`);
  }
  if (name === 'AI_InvalidToolInputError') {
    return formatToolError('invalid_input', `the arguments for ${toolName} are not valid JSON. Send a JSON object.`);
  }
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
  const text = message?.trim() || 'the tool failed without a message.';
  return redactKey(/^Error\b/.test(text) ? text : `Error: ${text}`, apiKey);
}

/**
 * The step's response messages with each failed call's result set to the exact text the panel showed, as page
 * data in the run's delimiter, so the model reads the same words now as it will from the stored conversation on
 * the next run (the SDK would send its own serialisation of the thrown error).
 */
function withErrorTexts(
  messages: ModelMessage[],
  errorTexts: ReadonlyMap<string, string>,
  spotlight: Spotlight,
  untrusted: (providerName: string) => boolean,
): ModelMessage[] {
  if (errorTexts.size === 0) return messages;
  return messages.map((message) => {
    if (message.role !== 'tool') return message;
    return {
      ...message,
      content: message.content.map((part) => {
        const text = part.type === 'tool-result' ? errorTexts.get(part.toolCallId) : undefined;
        if (text === undefined || part.type !== 'tool-result') return part;
        const value = spotlight.wrap(text, { tool: part.toolName, untrusted: untrusted(part.toolName) });
        return { ...part, output: { type: 'error-text' as const, value } };
      }),
    };
  });
}

type ToolResultOutput = ToolResultPart['output'];

/** Whether the SDK refused a call because its name is not in the step's tool set. */
function isNoSuchTool(error: unknown): boolean {
  const name =
    typeof error === 'string'
      ? /^(AI_\w+):/.exec(error)?.[1]
      : typeof error === 'object' && error !== null
        ? (error as { name?: unknown }).name
        : undefined;
  return name === 'AI_NoSuchToolError';
}

/** The step's response messages with the results of calls run after the SDK refused them (isNoSuchTool). */
function withLateOutputs(messages: ModelMessage[], outputs: ReadonlyMap<string, ToolResultOutput>): ModelMessage[] {
  if (outputs.size === 0) return messages;
  return messages.map((message) => {
    if (message.role !== 'tool') return message;
    return {
      ...message,
      content: message.content.map((part) => {
        const output = part.type === 'tool-result' ? outputs.get(part.toolCallId) : undefined;
        return output === undefined || part.type !== 'tool-result' ? part : { ...part, output };
      }),
    };
  });
}
