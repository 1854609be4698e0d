import type { ToolDescriptor } from './types';

/**
 * A chat-template turn, as the local loop hands it to a provider. `tool_calls` and the `tool` role follow
 * the shape Hugging Face chat templates expect, so a provider can pass these straight to
 * `tokenizer.apply_chat_template`.
 */
export interface ChatTurn {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Assistant turns that called tools (only with callFormat 'template'). */
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: Record<string, unknown> } }[];
  /** Tool turns: the call this result answers, and the tool's name. */
  tool_call_id?: string;
  name?: string;
}

/**
 * How earlier calls are written back into history:
 * - 'template': as structured `tool_calls` and `tool` turns, rendered by the model's own chat template;
 * - 'text': as plain text the model can read whatever its template (the call as `<tool_call>{json}</tool_call>`
 *   in the assistant turn, the result as a user turn), for templates without tool support.
 */
export type CallFormat = 'template' | 'text';

/** One generation. */
export interface GenerateRequest {
  messages: ChatTurn[];
  /** Tools for the chat template (absent when the tools are listed inline in the prompt text). */
  tools?: ToolDescriptor[];
  /** Most new tokens for this reply. */
  maxNewTokens?: number;
  /** Aborts the generation (Stop, or the loop's step timeout): the provider must stop within one token. */
  signal: AbortSignal;
}

/** The engine that generates text for runLocalAgent. */
export interface LocalProvider {
  /** Stable id of the model in use. */
  readonly id: string;
  /** List the tools in the prompt text with a JSON reply format, for models whose template has no tools. */
  readonly toolsInline: boolean;
  /** How earlier calls go back into history. */
  readonly callFormat: CallFormat;
  /** Download and load the model; progress from 0 to 1. Aborting the signal cancels it. */
  prepare: (onProgress: (progress: number) => void, signal?: AbortSignal) => Promise<void>;
  /** Generate one reply; the raw text, special tokens (tool-call markers) kept. Rejects when aborted. */
  generate: (req: GenerateRequest) => Promise<string>;
  /** Whether this prompt (with room for a reply) fits the model's context. Without it, everything fits. */
  fits?: (req: Omit<GenerateRequest, 'signal'>) => boolean | Promise<boolean>;
}
