import type { AgentMessage } from './types';

/**
 * What the on-device loop ranks a step's tools against (lib/local-agent/run-local-agent.ts), taken out of the
 * conversation in one place so that the recall measurement (lib/evals/measure-tool-recall.ts) ranks exactly as
 * the loop does: the person's last message, their turns before it, and the tools the conversation has called, most
 * recent first (a follow-up such as "Only direct ones" usually needs one of them again, or a tool about what the
 * earlier turns were about: "flights").
 */
interface RankingContext {
  request: string;
  /** The person's turns before the request, most recent first, at most EARLIER_TURNS, one a line. */
  earlier: string;
  recent: string[];
}

/** The person's turns before the request that the ranker reads: a conversation's topic is in its last few. */
const EARLIER_TURNS = 3;

/** The ranking context of a conversation that ends with (or after) the person's message. */
export function rankingContext(messages: readonly AgentMessage[]): RankingContext {
  const [request = '', ...earlier] = userTexts(messages, 1 + EARLIER_TURNS);
  return { request, earlier: earlier.join('\n'), recent: recentToolNames(messages) };
}

/** The texts of the last `count` user messages that have any, most recent first. */
function userTexts(messages: readonly AgentMessage[], count: number): string[] {
  const texts: string[] = [];
  for (let i = messages.length - 1; i >= 0 && texts.length < count; i--) {
    if (messages[i].role !== 'user') continue;
    const text = messages[i].parts
      .map((p) => (p.type === 'text' ? p.text : ''))
      .join('')
      .trim();
    if (text) texts.push(text);
  }
  return texts;
}

/** Tools called in the conversation, most recent first, each once. */
function recentToolNames(messages: readonly AgentMessage[]): string[] {
  const names: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const parts = messages[i].parts;
    for (let j = parts.length - 1; j >= 0; j--) {
      const part = parts[j];
      if (part.type === 'tool' && !names.includes(part.name)) names.push(part.name);
    }
  }
  return names;
}
