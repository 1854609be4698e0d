import type { AgentMessage } from './types';

/**
 * What the on-device loop ranks a step's tools against (lib/local-agent/run-local-agent.ts), taken out of the
 * conversation in one place so that the recall measurement (lib/evals/measure-tool-recall.ts) ranks exactly as
 * the loop does: the person's last message, and the tools the conversation has called, most recent first (a
 * follow-up such as "Only direct ones" usually needs one of them again).
 */
interface RankingContext {
  request: string;
  recent: string[];
}

/** The ranking context of a conversation that ends with (or after) the person's message. */
export function rankingContext(messages: readonly AgentMessage[]): RankingContext {
  return { request: lastUserText(messages), recent: recentToolNames(messages) };
}

/** The text of the last user message that has any. */
function lastUserText(messages: readonly AgentMessage[]): string {
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
