import { isFindToolsName } from '../agent/find-tools-name';
import { parseToolError } from '../agent/tool-error-codes';
import { toolOutputText } from '../agent/tool-output-text';
import type { AgentMessage, AgentPart } from '../agent/types';
import type { ActualCall, CaseScore, EvalCase, EvalMessage } from './eval-types';
import { scoreEvalCase } from './score-eval-case';
import { errorMessage } from '../shared/error-message';

/** How a run ended, as the host reports it. */
export interface EvalRunEnd {
  messages: AgentMessage[];
  reason: 'stop' | 'max-steps' | 'aborted' | 'error';
  error?: string;
}

/** What the runner needs from the panel: the real tab and the real agent. */
export interface EvalDriver {
  /** Loads the case's starting URL in the tab (a reload) and resolves once the page's tools are known. */
  reset(url: string, signal: AbortSignal): Promise<void>;
  /** Starts a fresh conversation holding `seed` (the case's earlier turns), then sends `text` and resolves when the run ends. */
  run(seed: AgentMessage[], text: string, signal: AbortSignal): Promise<EvalRunEnd>;
  /** The page's own name for a model-facing tool name (they differ when a name was made provider-safe). */
  originalName(name: string): string;
}

/** One case's result. */
export interface EvalCaseResult {
  index: number;
  name: string;
  /** `error`: the case could not be run to the end (the agent failed, the page did not load). */
  outcome: 'pass' | 'fail' | 'error';
  score?: CaseScore;
  actual: ActualCall[];
  finalAnswer?: string;
  error?: string;
  durationMs: number;
}

/** The progress of a run, after every case. */
interface EvalProgress {
  done: number;
  total: number;
  results: EvalCaseResult[];
}

/**
 * Runs every case against the current tab with the current agent: for each, the page is reloaded to `url`, a fresh
 * conversation is seeded with the case's earlier turns, its last user message is sent, and the calls the agent
 * made are scored with {@link scoreEvalCase}. Cases run one at a time; Stop (`signal`) ends the run after the
 * current case is stopped, and the results so far are returned.
 */
export async function runEvalCases(
  cases: readonly EvalCase[],
  options: { url: string; driver: EvalDriver; signal: AbortSignal; onProgress?: (progress: EvalProgress) => void; now?: () => number },
): Promise<EvalCaseResult[]> {
  const now = options.now ?? Date.now;
  const results: EvalCaseResult[] = [];
  for (const [index, evalCase] of cases.entries()) {
    if (options.signal.aborted) break;
    const started = now();
    const name = evalCase.name ?? `Case ${index + 1}`;
    const { seed, text } = splitMessages(evalCase.messages);
    let result: EvalCaseResult;
    try {
      await options.driver.reset(options.url, options.signal);
      const end = await options.driver.run(seed, text, options.signal);
      if (options.signal.aborted) break;
      const answer = end.messages.slice(seed.length + 1);
      const actual = collectActualCalls(answer, options.driver.originalName);
      const finalAnswer = lastText(answer);
      if (end.reason === 'error') {
        result = {
          index,
          name,
          outcome: 'error',
          actual,
          error: end.error ?? 'The agent failed.',
          durationMs: now() - started,
          ...(finalAnswer ? { finalAnswer } : {}),
        };
      } else {
        const score = scoreEvalCase(evalCase, actual);
        result = {
          index,
          name,
          outcome: score.outcome,
          score,
          actual,
          durationMs: now() - started,
          ...(finalAnswer ? { finalAnswer } : {}),
        };
      }
    } catch (error) {
      if (options.signal.aborted) break;
      result = { index, name, outcome: 'error', actual: [], error: errorMessage(error), durationMs: now() - started };
    }
    results.push(result);
    options.onProgress?.({ done: results.length, total: cases.length, results: [...results] });
  }
  return results;
}

/** The case's last user message, and the turns before it as a conversation to start from. */
export function splitMessages(messages: readonly EvalMessage[]): { seed: AgentMessage[]; text: string } {
  const last = messages.at(-1);
  const text = last && last.type === 'message' ? last.content : '';
  const seed: AgentMessage[] = [];
  let calls = 0;
  for (const m of messages.slice(0, -1)) {
    if (m.type === 'message') {
      seed.push({ id: `seed-${seed.length}`, role: m.role === 'user' ? 'user' : 'assistant', parts: [{ type: 'text', text: m.content }] });
    } else if (m.type === 'functioncall') {
      const previous = seed.at(-1);
      const part: AgentPart = { type: 'tool', id: `seed-call-${calls++}`, name: m.name, input: m.arguments ?? {}, state: 'done' };
      if (previous?.role === 'assistant') previous.parts.push(part);
      else seed.push({ id: `seed-${seed.length}`, role: 'assistant', parts: [part] });
    } else {
      // A function response answers the latest call of that tool still without an output.
      const open = seed
        .flatMap((s) => s.parts)
        .reverse()
        .find((p): p is Extract<AgentPart, { type: 'tool' }> => p.type === 'tool' && p.name === m.name && p.output === undefined);
      if (open)
        open.output = { content: [{ type: 'text', text: typeof m.response === 'string' ? m.response : JSON.stringify(m.response) }] };
    }
  }
  return { seed, text };
}

/**
 * The page-tool calls in a run's messages, in order, with their results. A sub-agent's calls stand in place of
 * the `delegate_to_…` call that ran them, so a case scores the page's trajectory whoever made the calls. A search
 * (`find_tools`, the extension's own step) is no page call and is left out.
 */
export function collectActualCalls(messages: readonly AgentMessage[], originalName: (name: string) => string = (n) => n): ActualCall[] {
  const calls: ActualCall[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.parts) {
      if (part.type !== 'tool' || isFindToolsName(part.name)) continue;
      if (part.agent) {
        calls.push(...collectActualCalls(part.agent.messages, originalName));
        continue;
      }
      const output = part.output ? toolOutputText(part.output) : undefined;
      const error = part.error ? parseToolError(part.error) : undefined;
      calls.push({
        functionName: originalName(part.name),
        args: part.input,
        ...(output !== undefined ? { result: parseMaybeJson(output) } : {}),
        ...(error?.code ? { errorCode: error.code } : {}),
        ...(part.secretPaths?.length ? { secretPaths: part.secretPaths } : {}),
      });
    }
  }
  return calls;
}

function parseMaybeJson(text: string): unknown {
  const trimmed = text.trim();
  if (!/^[[{"]|^-?\d|^(true|false|null)$/.test(trimmed)) return text;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

function lastText(messages: readonly AgentMessage[]): string | undefined {
  for (const message of [...messages].reverse()) {
    if (message.role !== 'assistant') continue;
    const texts = message.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text);
    if (texts.length > 0) return texts.join('\n');
  }
  return undefined;
}
