import type { ChatTurn } from '../agent/local-provider';

/**
 * About 3.5 characters a token for English and JSON: the rule lib/local/measure-device.test.ts holds the device test
 * prompt to. No tokenizer is loaded for the audit (the model's own is in its download), so this is an estimate.
 */
export const CHARACTERS_PER_TOKEN = 3.5;

/**
 * The tokens of a prompt, estimated from its characters: every turn's text and the tools as JSON, before the chat
 * template's own markers (a few dozen tokens more). Within a tenth or so of a real count for English text and
 * schemas; text in other scripts takes more tokens per character.
 */
export function estimateTokens(prompt: { messages: readonly ChatTurn[]; tools?: readonly unknown[] }): number {
  const text = prompt.messages.reduce((n, turn) => n + turn.content.length, 0);
  const tools = prompt.tools?.length ? JSON.stringify(prompt.tools).length : 0;
  return Math.ceil((text + tools) / CHARACTERS_PER_TOKEN);
}
