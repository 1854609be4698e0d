import { createSpotlight } from '../page-data/spotlight';
import {
  type FinishedCall,
  type HistoryBlock,
  buildHistory,
  callBlock,
  dropOldestBlock,
  finishedCall,
  flattenHistory,
  userBlock,
} from './build-history';
import { buildLocalSystemPrompt } from './build-local-system-prompt';
import { createLoopDetector } from './detect-loop';
import { findCorrection } from './find-correction';
import {
  FIND_TOOLS_NOTE,
  FIND_TOOLS_TOOL,
  foundToolsLimit,
  MAX_SEARCHES_PER_TURN,
  rememberToolSearch,
  runToolSearch,
  type ToolSearchState,
  withFoundTools,
} from '../agent/find-tools';
import { FIND_TOOLS_NAME, isFindToolsName } from '../agent/find-tools-name';
import { gistOfResult } from '../agent/gist-of-result';
import { inPageOrder } from './in-page-order';
import type { ChatTurn, GenerateRequest, LocalProvider } from '../agent/local-provider';
import { LOCAL_AGENT_MESSAGES, LOCAL_AGENT_PROMPTS } from '../agent/local-agent-messages';
import { type ParsedReply, parseToolCalls } from './parse-tool-calls';
import { rankTools } from '../agent/rank-tools';
import { rankingContext } from '../agent/ranking-context';
import { STOPPED_CALL_ERROR } from '../agent/reduce-stream-part';
import { runSubAgent } from '../agent/run-sub-agent';
import { selectTools, subAgentFor } from '../agent/select-tools';
import { siteLabel } from '../agent/site-tool-names';
import { toolOutputText } from '../agent/tool-output-text';
import type { AgentMessage, AgentPart, AgentRunRequest, AgentStreamPart, ToolDescriptor, ToolOutput } from '../agent/types';
import { validateArgs } from '../agent/validate-args';
import { safeJson } from '../shared/safe-json';

/** Options of {@link runLocalAgent} (docs/architecture.md § The on-device loop). */
export interface LocalLoopOptions {
  /** Model steps per user message. Default 6. The page's agent (req.agent.maxSteps) wins. */
  maxSteps?: number;
  /** Time limit per generation, in ms. Default 60000. A timeout ends the run with a message. */
  stepTimeoutMs?: number;
  /** Most tools shown to the model per step. Default 8. */
  maxTools?: number;
  /** List the tools in the prompt text, with a JSON reply format. Default false. */
  toolsInline?: boolean;
  /** "About this site". The page's agent (req.agent.instructions) wins. */
  instructions?: string;
  /** Most new tokens per reply, passed to the provider (its own default when unset). */
  maxNewTokens?: number;
  /** Ids for messages and calls. Default crypto.randomUUID. */
  generateId?: () => string;
}

/** Seed 000's defaults. */
export const LOCAL_LOOP_DEFAULTS = { maxSteps: 6, stepTimeoutMs: 60_000, maxTools: 8, toolsInline: false } as const;

/** How long a stopped call may take to report its own cancellation before the loop stops waiting. */
const STOP_GRACE_MS = 250;

/** Tool counts tried, after maxTools, when the prompt does not fit (docs/architecture.md § The on-device loop, step 4). */
const FALLBACK_TOOL_COUNTS = [4, 2, 1];

type ToolPart = Extract<AgentPart, { type: 'tool' }>;

/**
 * The on-device agent loop, the same for every provider (docs/architecture.md § The on-device loop): rank the page's tools, generate, parse and
 * validate tool calls, run them on the page one at a time, feed the results back, repeat. Yields
 * {@link AgentStreamPart}s and ends with finish or error. The provider must be ready (prepare() done).
 *
 * Each step: history → tool ranking (read fresh) → prompt fitting → generation (raced against Stop and the step
 * timeout) → parse and validate before showing anything → at most one correction and one repair → calls in
 * order → the request restated. Loop detection flags a repeated call once and stops at the second; after
 * maxSteps the run ends with the gist of the last result.
 */
export async function* runLocalAgent(
  provider: LocalProvider,
  req: AgentRunRequest,
  options: LocalLoopOptions = {},
): AsyncGenerator<AgentStreamPart, void, undefined> {
  try {
    yield* runSteps(provider, req, options);
  } catch (error) {
    // A broken tools getter or provider object: the run still ends with a part the panel can explain.
    yield req.signal?.aborted
      ? { type: 'finish', reason: 'aborted' }
      : { type: 'error', error: LOCAL_AGENT_MESSAGES.internal(errorText(error)) };
  }
}

// long-function: the on-device loop is one numbered procedure (1. history … 10. loop detection), read top to bottom.
async function* runSteps(
  provider: LocalProvider,
  req: AgentRunRequest,
  options: LocalLoopOptions,
): AsyncGenerator<AgentStreamPart, void, undefined> {
  const maxSteps = positiveInt(req.agent?.maxSteps) ?? positiveInt(options.maxSteps) ?? LOCAL_LOOP_DEFAULTS.maxSteps;
  const stepTimeoutMs = positiveInt(options.stepTimeoutMs) ?? LOCAL_LOOP_DEFAULTS.stepTimeoutMs;
  const maxTools = positiveInt(options.maxTools) ?? LOCAL_LOOP_DEFAULTS.maxTools;
  const toolsInline = options.toolsInline ?? LOCAL_LOOP_DEFAULTS.toolsInline;
  const instructions = req.agent?.instructions ?? options.instructions;
  const newId = options.generateId ?? (() => crypto.randomUUID());
  const format = provider.callFormat;

  if (req.signal.aborted) {
    yield { type: 'finish', reason: 'aborted' };
    return;
  }

  // What the step's tools are ranked against (ranking-context.ts: the recall bench ranks the same way).
  const { request, earlier, recent } = rankingContext(req.messages);
  // In a task across tabs, the tools of the site the person typed on are listed under its label (site-tool-names.ts).
  const here = typeof req.site === 'string' ? siteLabel(req.site) : undefined;
  // 1. History.
  // Tool results reach the model as page data in this run's delimiter, which the system prompt names.
  const spotlight = createSpotlight();
  const isUntrusted = (name: string) => req.tools.some((t) => t.name === name && t.annotations?.untrustedContentHint === true);
  let blocks = buildHistory(req.messages, { callFormat: format, spotlight, isUntrusted });
  const loop = createLoopDetector();
  const results = earlierResults(req.messages);
  let lastResult: string | undefined;
  let lastFailure: string | undefined;
  // The search step (find-tools.ts): searches made for this request, and the tools the last one found.
  const search: ToolSearchState = { count: 0, found: [] };

  // 2. Resume: the history ends on a finished call (Retry), or on anything but the person's turn. The calls
  // already made for this request count toward loop detection and the last failure.
  const last = req.messages[req.messages.length - 1];
  if (last && last.role !== 'user') {
    const turnStart = findLastIndex(req.messages, (m) => m.role === 'user') + 1;
    for (const message of req.messages.slice(turnStart)) {
      for (const part of message.parts) {
        if (part.type !== 'tool' || part.state === 'running' || part.state === 'awaiting-confirmation') continue;
        if (isFindToolsName(part.name)) rememberToolSearch(search, part.output);
        const call = finishedCall(part);
        loop.remember(call.name, call.input, call.result);
        lastResult = call.result;
        lastFailure = isFailure(part) ? call.result : undefined;
      }
    }
    blocks.push(userBlock(LOCAL_AGENT_PROMPTS.nextStep(request)));
  }

  for (let step = 1; step <= maxSteps; step++) {
    const messageId = newId();
    yield { type: 'message-start', messageId };

    // 3. Tool ranking, read fresh: the page's tools change as it changes.
    const available = selectTools(req.agent, req.tools, req.delegationDepth);
    const ranked = withFoundTools(
      rankTools(available, request, { max: maxTools, recent, here, earlier }),
      search.found,
      available,
      maxTools,
    );
    // The search tool is offered beside the page's tools while some are left out and searches are left.
    const canSearch = (tools: readonly ToolDescriptor[]) => search.count < MAX_SEARCHES_PER_TURN && available.length > tools.length;
    const offer = (tools: readonly ToolDescriptor[], search: boolean) => [
      ...inPageOrder(tools, available),
      ...(search && canSearch(tools) ? [FIND_TOOLS_TOOL] : []),
    ];

    let scratch: ChatTurn[] = [];
    let corrected = false;
    let repaired = false;
    let accepted: ParsedReply | undefined;
    let offeredNow: string[] = [];

    while (!accepted) {
      // 4. Prompt fitting.
      let fitted: Fitted | undefined;
      try {
        fitted = await fitPrompt(provider, {
          blocks,
          scratch,
          ranked,
          maxTools,
          searchable: canSearch,
          compose: (b, tools, search) => ({
            // Page order, not rank order: the same choice of tools is the same prompt prefix (KV-cache reuse).
            messages: [
              {
                role: 'system',
                content: buildLocalSystemPrompt({
                  tools: offer(tools, search),
                  toolsInline,
                  page: req.page,
                  instructions,
                  dataRule: spotlight.rule,
                }),
              },
              ...flattenHistory(b, format),
              ...scratch,
            ],
            ...(toolsInline ? {} : { tools: offer(tools, search) }),
            ...(options.maxNewTokens ? { maxNewTokens: options.maxNewTokens } : {}),
          }),
        });
      } catch (error) {
        yield { type: 'error', error: LOCAL_AGENT_MESSAGES.failed(errorText(error)) };
        return;
      }
      if (!fitted) {
        yield { type: 'error', error: LOCAL_AGENT_MESSAGES.tooLong };
        return;
      }
      blocks = fitted.blocks;

      // 5. Generate.
      const outcome = await generate(provider, fitted.request, req.signal, stepTimeoutMs);
      if (outcome.kind === 'aborted') {
        yield { type: 'finish', reason: 'aborted' };
        return;
      }
      if (outcome.kind === 'timeout') {
        yield { type: 'error', error: LOCAL_AGENT_MESSAGES.timeout };
        return;
      }
      if (outcome.kind === 'failed') {
        yield { type: 'error', error: LOCAL_AGENT_MESSAGES.failed(outcome.message) };
        return;
      }

      // 6. Read before showing. The search tool first: a loose spelling of its name is the search, no page tool.
      const callable = fitted.search && canSearch(fitted.tools) ? [FIND_TOOLS_TOOL, ...available] : available;
      offeredNow = fitted.tools.map((t) => t.name);
      const parsed = parseToolCalls(outcome.text, callable);
      const problems = checkReply(parsed, callable);
      if (problems.length) {
        // 8. Repair, once per step.
        if (repaired) {
          yield { type: 'text-delta', messageId, delta: LOCAL_AGENT_MESSAGES.apology(problems[0].forPerson) };
          yield { type: 'step-finish', step };
          yield { type: 'finish', reason: 'stop' };
          return;
        }
        repaired = true;
        scratch = [
          ...scratch,
          { role: 'assistant', content: outcome.text },
          { role: 'user', content: LOCAL_AGENT_PROMPTS.repair(problems.map((p) => p.forModel)) },
        ];
        continue;
      }

      if (parsed.calls.length === 0) {
        // 7. Corrections, once per step.
        const correction = findCorrection({ text: parsed.text, request, lastFailure, tools: available, results });
        if (correction?.kind === 'echo' && lastResult !== undefined) {
          parsed.text = gistOfResult(lastResult) || parsed.text;
        } else if (correction && correction.kind !== 'echo' && !corrected) {
          corrected = true;
          const prompt =
            correction.kind === 'ignored-failure'
              ? LOCAL_AGENT_PROMPTS.ignoredFailure(lastFailure ?? '')
              : LOCAL_AGENT_PROMPTS.doItYourself(correction.tool);
          scratch = [...scratch, { role: 'assistant', content: outcome.text }, { role: 'user', content: prompt }];
          continue;
        }
      }
      accepted = parsed;
    }

    if (accepted.reasoning) yield { type: 'reasoning', messageId, text: accepted.reasoning };
    if (accepted.text) yield { type: 'text-delta', messageId, delta: accepted.text };
    if (accepted.calls.length === 0) {
      yield { type: 'step-finish', step };
      yield { type: 'finish', reason: 'stop' };
      return;
    }

    // 9. Run the calls, in order, one at a time.
    const done: FinishedCall[] = [];
    let stop: 'circles' | 'aborted' | undefined;
    for (const call of accepted.calls) {
      if (req.signal.aborted) {
        stop = 'aborted';
        break;
      }
      const id = newId();
      const input = call.input ?? {};
      yield { type: 'tool-call', messageId, id, name: call.name, input };
      const searching = call.name === FIND_TOOLS_NAME;
      // The search runs here, over this run's tools, never on a page. A delegate_to_<id> call runs the sub-agent's
      // own loop as a nested run, with this loop's provider.
      const output = searching
        ? runToolSearch(search, available, input, { offered: offeredNow, max: foundToolsLimit(maxTools) })
        : subAgentFor(req.agent, call.name, req.delegationDepth)
          ? yield* runSubAgent(req, { id, name: call.name, input }, (nested) => runLocalAgent(provider, nested, options))
          : await callTool(req, { id, name: call.name, input });
      const text = toolOutputText(output);
      yield output.isError ? { type: 'tool-error', id, error: text } : { type: 'tool-result', id, output };
      if (!searching) {
        results.push(text);
        lastResult = text;
        lastFailure = output.isError ? text : undefined;
        moveToFront(recent, call.name);
      }
      // 10. Loop detection.
      const verdict = loop.record(call.name, input, text);
      // The loop's own note goes after the page's data, outside its delimiter: it is an instruction, the result is not.
      const note = [
        ...(searching && !output.isError && search.found.length ? [FIND_TOOLS_NOTE] : []),
        ...(verdict === 'flag' ? [LOCAL_AGENT_PROMPTS.repeated] : []),
      ].join(' ');
      done.push({
        id,
        name: call.name,
        input,
        result: text,
        ...(isUntrusted(call.name) ? { untrusted: true } : {}),
        ...(note ? { note } : {}),
      });
      if (verdict === 'stop') stop = 'circles';
      else if (req.signal.aborted) stop = 'aborted';
      // Later calls of the same reply were planned on this one succeeding.
      if (stop || output.isError) break;
    }
    blocks = [...blocks, callBlock(format, accepted.text, done, undefined, spotlight), userBlock(LOCAL_AGENT_PROMPTS.nextStep(request))];

    if (stop === 'aborted') {
      yield { type: 'finish', reason: 'aborted' };
      return;
    }
    if (stop === 'circles') {
      yield { type: 'text-delta', messageId, delta: LOCAL_AGENT_MESSAGES.circles(gistOfResult(lastResult ?? '')) };
      yield { type: 'step-finish', step };
      yield { type: 'finish', reason: 'stop' };
      return;
    }
    yield { type: 'step-finish', step };

    // 11. Max steps.
    if (step === maxSteps) {
      yield { type: 'text-delta', messageId, delta: LOCAL_AGENT_MESSAGES.maxSteps(maxSteps, gistOfResult(lastResult ?? '')) };
      yield { type: 'finish', reason: 'max-steps' };
      return;
    }
  }
}

interface Fitted {
  request: Omit<GenerateRequest, 'signal'>;
  blocks: HistoryBlock[];
  tools: readonly ToolDescriptor[];
  /** The search tool may go beside the tools (compose offers it when some are left out). */
  search: boolean;
}

/**
 * Seed 000 step 4: maxTools tools, then 4, 2 and 1, each with the search tool where it may go (`searchable`: some
 * tools are left out); then those counts without it; then the oldest turns dropped (never the newest user turn). The search tool goes before any
 * turn does: a tight context keeps the conversation it had. Undefined when nothing fits. Without provider.fits
 * everything fits.
 */
async function fitPrompt(
  provider: LocalProvider,
  input: {
    blocks: HistoryBlock[];
    scratch: ChatTurn[];
    ranked: readonly ToolDescriptor[];
    maxTools: number;
    compose: (blocks: readonly HistoryBlock[], tools: readonly ToolDescriptor[], search: boolean) => Omit<GenerateRequest, 'signal'>;
    searchable: (tools: readonly ToolDescriptor[]) => boolean;
  },
): Promise<Fitted | undefined> {
  const { ranked, compose } = input;
  const counts = [...new Set([Math.min(input.maxTools, ranked.length), ...FALLBACK_TOOL_COUNTS])].filter(
    (n) => n <= ranked.length && n <= input.maxTools,
  );
  if (counts.length === 0) counts.push(0);
  const fits = async (request: Omit<GenerateRequest, 'signal'>) => !provider.fits || (await provider.fits(request));
  // Each count with the search tool where it may go (plain where nothing is left out), then those counts plain.
  const searchable = counts.filter((count) => input.searchable(ranked.slice(0, count)));
  const variants = [
    ...counts.map((count) => ({ count, search: searchable.includes(count) })),
    ...searchable.map((count) => ({ count, search: false })),
  ];
  for (const { count, search } of variants) {
    const tools = ranked.slice(0, count);
    const request = compose(input.blocks, tools, search);
    if (await fits(request)) return { request, blocks: input.blocks, tools, search };
  }
  const tools = ranked.slice(0, counts[counts.length - 1]);
  let blocks: HistoryBlock[] | undefined = input.blocks;
  for (;;) {
    blocks = dropOldestBlock(blocks);
    if (!blocks) return undefined;
    const request = compose(blocks, tools, false);
    if (await fits(request)) return { request, blocks, tools, search: false };
  }
}

type Outcome = { kind: 'text'; text: string } | { kind: 'aborted' } | { kind: 'timeout' } | { kind: 'failed'; message: string };

/** One generation raced against Stop and the step timeout; the provider's own signal aborts with either. */
async function generate(
  provider: LocalProvider,
  request: Omit<GenerateRequest, 'signal'>,
  stop: AbortSignal,
  timeoutMs: number,
): Promise<Outcome> {
  if (stop.aborted) return { kind: 'aborted' };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onStop: (() => void) | undefined;
  const interrupted = new Promise<Outcome>((resolve) => {
    onStop = () => {
      controller.abort(stop.reason);
      resolve({ kind: 'aborted' });
    };
    stop.addEventListener('abort', onStop, { once: true });
    timer = setTimeout(() => {
      controller.abort(new DOMException('The step took too long.', 'TimeoutError'));
      resolve({ kind: 'timeout' });
    }, timeoutMs);
  });
  const generated = Promise.resolve()
    .then(() => provider.generate({ ...request, signal: controller.signal }))
    .then(
      (text): Outcome => ({ kind: 'text', text: typeof text === 'string' ? text : String(text ?? '') }),
      (error): Outcome => ({ kind: 'failed', message: errorText(error) }),
    );
  try {
    const outcome = await Promise.race([generated, interrupted]);
    // A provider that rejects because we aborted it reports the abort, not a failure.
    if (outcome.kind === 'failed' && controller.signal.aborted) return stop.aborted ? { kind: 'aborted' } : { kind: 'timeout' };
    return outcome;
  } finally {
    clearTimeout(timer);
    if (onStop) stop.removeEventListener('abort', onStop);
  }
}

/** One thing wrong with a reply: what the model is told, and the short version the person may see. */
interface Problem {
  forModel: string;
  forPerson: string;
}

/** Problems that make a reply unusable (docs/architecture.md § The on-device loop, steps 6–7): unknown tools, unreadable calls, invalid arguments. */
function checkReply(parsed: ParsedReply, tools: readonly ToolDescriptor[]): Problem[] {
  const problems: Problem[] = [];
  for (const snippet of parsed.unreadable) {
    problems.push({
      forModel: `I could not read this tool call: ${oneLine(snippet, 120)}. Write the call as valid JSON with "name" and "arguments".`,
      forPerson: 'the model wrote a tool call that could not be read',
    });
  }
  for (const call of parsed.calls) {
    const tool = tools.find((t) => t.name === call.name);
    const name = oneLine(call.name, 64);
    if (!tool) {
      const names = tools.slice(0, 12).map((t) => t.name);
      problems.push({
        forModel: names.length
          ? `There is no tool named "${name}". The tools are: ${names.join(', ')}.`
          : `There is no tool named "${name}". This page has no tools right now: answer in plain text.`,
        forPerson: `the model asked for a tool this page does not have: ${name}`,
      });
      continue;
    }
    const input = call.input ?? {};
    if (typeof input !== 'object' || Array.isArray(input)) {
      problems.push({
        forModel: `${tool.name}: the arguments must be a JSON object of named parameters.`,
        forPerson: `the model gave ${tool.name} arguments it cannot take`,
      });
      continue;
    }
    const verdict = validateArgs(tool.inputSchema, input);
    if (!verdict.ok) {
      problems.push({
        forModel: `Invalid arguments for ${tool.name}: ${verdict.message}.`,
        forPerson: `the model gave ${tool.name} invalid arguments: ${verdict.message}`,
      });
    }
  }
  if (problems.length === 0 && parsed.calls.length === 0 && parsed.text.trim() === '') {
    problems.push({ forModel: 'Your reply was empty. Answer the user, or call a tool.', forPerson: 'the model gave no answer' });
  }
  return problems;
}

/**
 * req.callTool never rejects by contract; a broken one still must not end the run unexplained. Stop wins over a
 * call that never answers.
 */
async function callTool(req: AgentRunRequest, call: { id: string; name: string; input: unknown }): Promise<ToolOutput> {
  let onStop: (() => void) | undefined;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const stopped = new Promise<ToolOutput>((resolve) => {
    // The page's own "cancelled" answer says more: give it a moment to arrive.
    onStop = () => {
      grace = setTimeout(() => resolve({ content: [{ type: 'text', text: STOPPED_CALL_ERROR }], isError: true }), STOP_GRACE_MS);
    };
    req.signal.addEventListener('abort', onStop, { once: true });
  });
  try {
    const output = await Promise.race([Promise.resolve().then(() => req.callTool(call)), stopped]);
    if (output && typeof output === 'object' && Array.isArray(output.content)) return output;
    return { content: [{ type: 'text', text: safeJson(output) }] };
  } catch (error) {
    return { content: [{ type: 'text', text: `Error [tool_threw]: ${errorText(error)}` }], isError: true };
  } finally {
    clearTimeout(grace);
    if (onStop) req.signal.removeEventListener('abort', onStop);
  }
}

function earlierResults(messages: readonly AgentMessage[]): string[] {
  const results: string[] = [];
  for (const message of messages) {
    for (const part of message.parts) if (part.type === 'tool' && part.state === 'done') results.push(finishedCall(part).result);
  }
  return results;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return i;
  return -1;
}

function isFailure(part: ToolPart): boolean {
  return part.state === 'error' || part.state === 'cancelled';
}

function moveToFront(list: string[], name: string): void {
  const at = list.indexOf(name);
  if (at !== -1) list.splice(at, 1);
  list.unshift(name);
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : String(error);
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
