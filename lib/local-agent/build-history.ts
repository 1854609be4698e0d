import { createSpotlight, type Spotlight } from '../page-data/spotlight';
import type { CallFormat, ChatTurn } from '../agent/local-provider';
import { toolOutputText } from '../agent/tool-output-text';
import type { AgentMessage, AgentPart } from '../agent/types';

/**
 * A unit of history that is kept or dropped whole: a user turn, or an assistant turn together with the results
 * of the calls it made. Dropping by block is what keeps a tool result with the call it answers.
 */
export interface HistoryBlock {
  role: 'user' | 'assistant';
  turns: ChatTurn[];
}

/** A finished call as history writes it back. */
export interface FinishedCall {
  id: string;
  name: string;
  input: unknown;
  /** The result text (an error starts with "Error"). */
  result: string;
  /** The tool is marked untrustedContentHint: its result is flagged as such inside the delimiter. */
  untrusted?: boolean;
  /** The agent's own words about this result (a repeated call), written after the page's data, outside it. */
  note?: string;
}

/** Options of {@link buildHistory}. */
interface BuildHistoryOptions {
  /** How earlier calls are written: the provider's callFormat. */
  callFormat: CallFormat;
  /** Messages kept, counted from the end; the window then starts on a user turn. Default 12. */
  maxTurns?: number;
  /** Longest tool result kept, in characters. Default 1500. */
  maxResultChars?: number;
  /** The run's delimiter for tool results (the system prompt names its tag). Default: a fresh one. */
  spotlight?: Spotlight;
  /** Whether a tool (by name) is marked untrustedContentHint. */
  isUntrusted?: (toolName: string) => boolean;
}

type ToolPart = Extract<AgentPart, { type: 'tool' }>;

/**
 * The conversation as chat-template turns, grouped in blocks: the last `maxTurns` messages, starting on a user
 * turn (the newest user message is always in); earlier calls in `callFormat`; results cut to `maxResultChars`.
 * Reasoning is not sent back (small models' templates drop it anyway).
 */
export function buildHistory(messages: readonly AgentMessage[], options: BuildHistoryOptions): HistoryBlock[] {
  const maxTurns = options.maxTurns ?? 12;
  const maxResultChars = options.maxResultChars ?? 1500;
  const spotlight = options.spotlight ?? createSpotlight();
  const untrusted = (call: FinishedCall): FinishedCall => (options.isUntrusted?.(call.name) ? { ...call, untrusted: true } : call);
  let start = Math.max(0, messages.length - maxTurns);
  const lastUser = findLastIndex(messages, (m) => m.role === 'user');
  if (lastUser !== -1 && lastUser < start) start = lastUser;
  while (start < messages.length && messages[start].role !== 'user') start++;
  if (start === messages.length && lastUser !== -1) start = lastUser;

  const blocks: HistoryBlock[] = [];
  for (const message of messages.slice(start)) {
    if (message.role === 'user') {
      const text = textOf(message.parts);
      if (text) blocks.push(userBlock(text));
      continue;
    }
    // One assistant message may say something, call tools, then say more: each stretch is its own block.
    let text: string[] = [];
    let calls: ToolPart[] = [];
    const flush = () => {
      const prose = text.join('').trim();
      if (calls.length) {
        blocks.push(
          callBlock(
            options.callFormat,
            prose,
            calls.map((c) => untrusted(finishedCall(c))),
            maxResultChars,
            spotlight,
          ),
        );
      } else if (prose) blocks.push({ role: 'assistant', turns: [{ role: 'assistant', content: prose }] });
      text = [];
      calls = [];
    };
    for (const part of message.parts) {
      if (part.type === 'text') {
        if (calls.length) flush();
        text.push(part.text);
      } else if (part.type === 'tool') calls.push(part);
    }
    flush();
  }
  return blocks;
}

/** A user turn as a block. */
export function userBlock(content: string): HistoryBlock {
  return { role: 'user', turns: [{ role: 'user', content }] };
}

/**
 * An assistant turn that made calls, with their results. 'template': structured tool_calls and tool turns.
 * 'text': the calls as `<tool_call>{json}</tool_call>` lines in the assistant turn, the results in a user turn.
 * Either way each result is page data in the run's delimiter ({@link resultForModel}).
 */
export function callBlock(
  format: CallFormat,
  prose: string,
  calls: readonly FinishedCall[],
  maxResultChars = 1500,
  spotlight: Spotlight = createSpotlight(),
): HistoryBlock {
  const resultText = (c: FinishedCall) => resultForModel(c, maxResultChars, spotlight);
  if (format === 'template') {
    return {
      role: 'assistant',
      turns: [
        {
          role: 'assistant',
          content: prose,
          tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: asArguments(c.input) } })),
        },
        ...calls.map((c): ChatTurn => ({ role: 'tool', tool_call_id: c.id, name: c.name, content: resultText(c) })),
      ],
    };
  }
  const written = calls.map((c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: asArguments(c.input) })}\n</tool_call>`);
  return {
    role: 'assistant',
    turns: [
      { role: 'assistant', content: [prose, ...written].filter(Boolean).join('\n') },
      { role: 'user', content: calls.map((c) => `Result of ${c.name}:\n${resultText(c)}`).join('\n\n') },
    ],
  };
}

/**
 * The blocks as turns for the provider. With the 'text' call format, results are user turns: consecutive user
 * turns are merged, since many templates insist on alternating roles.
 */
export function flattenHistory(blocks: readonly HistoryBlock[], format: CallFormat): ChatTurn[] {
  const turns: ChatTurn[] = [];
  for (const block of blocks) {
    for (const turn of block.turns) {
      const previous = turns[turns.length - 1];
      if (format === 'text' && turn.role === 'user' && previous?.role === 'user') {
        turns[turns.length - 1] = { ...previous, content: `${previous.content}\n\n${turn.content}` };
      } else turns.push(turn);
    }
  }
  return turns;
}

/**
 * The history without its oldest block, still starting on a user turn; undefined when only the newest user turn
 * and what follows it are left (that turn always stays).
 */
export function dropOldestBlock(blocks: readonly HistoryBlock[]): HistoryBlock[] | undefined {
  const newestUser = findLastIndex(blocks, (b) => b.role === 'user');
  if (newestUser <= 0) return undefined;
  let start = 1;
  while (start < newestUser && blocks[start].role !== 'user') start++;
  return blocks.slice(start);
}

/** A result cut to `max` characters, saying how much was left out. */
export function cutResult(text: string, max = 1500): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters cut)`;
}

/**
 * The one point where a result's text enters the prompt: cut to `max`, cleaned of hidden characters and wrapped
 * as page data in the run's delimiter (spotlighting), then the agent's own note, if any, outside it. The call's
 * own `result` stays as it was: loop detection, gists and corrections read the inner text.
 */
function resultForModel(call: FinishedCall, max: number, spotlight: Spotlight): string {
  const data = spotlight.wrap(cutResult(call.result, max), { tool: call.name, untrusted: call.untrusted });
  return call.note ? `${data}\n\n${call.note}` : data;
}

/** A finished tool part as a call with its result text; a call that never finished reads as cancelled. */
export function finishedCall(part: ToolPart): FinishedCall {
  let result: string;
  if (part.state === 'done') result = toolOutputText(part.output);
  else if (part.error) result = part.error;
  else if (part.state === 'awaiting-confirmation') result = 'Error [awaiting_confirmation]: waiting for the person to confirm.';
  else result = 'Error [cancelled]: the call did not finish.';
  return { id: part.id, name: part.name, input: part.input, result };
}

function asArguments(input: unknown): Record<string, unknown> {
  return input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { input };
}

function textOf(parts: readonly AgentPart[]): string {
  return parts
    .filter((p): p is Extract<AgentPart, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('')
    .trim();
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return i;
  return -1;
}
