/**
 * What the person sets for cloud mode, in the extension's options page. Stored in extension local storage
 * (never synced); the key is read only in the agent host, at the moment a request is made.
 */

/** The provider packages cloud mode speaks through. */
export type CloudProviderId = 'openai' | 'openai-compatible' | 'anthropic';

/** Every provider, in the order the options page lists them. */
export const CLOUD_PROVIDERS: readonly CloudProviderId[] = ['openai', 'anthropic', 'openai-compatible'];

/** Each provider's own API, used when `baseURL` is not set. OpenAI-compatible servers have none. */
export const DEFAULT_BASE_URLS: Readonly<Record<CloudProviderId, string | undefined>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  'openai-compatible': undefined,
};

/** How to reach a provider: everything `resolveModel` needs beside the "provider/model" name. */
export interface CloudConnection {
  /** The person's key. May be empty for a local OpenAI-compatible server (Ollama, LM Studio, llama.cpp). */
  apiKey: string;
  /**
   * The API's base URL, up to and including the version segment: "https://api.openai.com/v1",
   * "http://localhost:11434/v1" (Ollama), "http://localhost:1234/v1" (LM Studio), "https://openrouter.ai/api/v1",
   * "http://localhost:8000/v1" (vLLM), "http://localhost:8080/v1" (llama.cpp). Required for openai-compatible.
   */
  baseURL?: string;
  /** OpenAI only: the Responses API (default) or Chat Completions, for proxies that only speak the latter. */
  openaiApi?: 'responses' | 'chat';
}

/** Cloud mode's settings. */
export interface CloudSettings extends CloudConnection {
  provider: CloudProviderId;
  /** The model's id at the provider, without the provider prefix: "gpt-5-mini", "claude-sonnet-4-5", "qwen3:4b". */
  model: string;
  /** Model steps per user message; the page's agent (req.agent.maxSteps) wins. Default DEFAULT_CLOUD_MAX_STEPS. */
  maxSteps?: number;
  /** Output token cap per step. */
  maxOutputTokens?: number;
  /**
   * How much the model thinks before answering, for models that can (the AI SDK maps it to Anthropic's
   * extended thinking budget and OpenAI's reasoning effort). Unset: the provider's default.
   */
  reasoning?: CloudReasoning;
}

/** Reasoning effort levels cloud mode offers. */
export type CloudReasoning = 'provider-default' | 'none' | 'low' | 'medium' | 'high';

/** What cloud code needs from its context: injected so lib/ stays free of globals. */
export interface CloudDeps {
  /** The fetch to call providers with (the agent host passes its own `fetch`). */
  fetch: typeof fetch;
  /** Retries for 429 and 5xx answers, with backoff that honours retry-after. Default 2. */
  maxRetries?: number;
  /** Ids for messages. Default crypto.randomUUID. */
  generateId?: () => string;
}

/** Model steps per user message in cloud mode (the AI SDK's ToolLoopAgent default). */
export const DEFAULT_CLOUD_MAX_STEPS = 20;

/** The "provider/model" name of the settings' model. */
export function cloudModelName(settings: Pick<CloudSettings, 'provider' | 'model'>): string {
  return `${settings.provider}/${settings.model}`;
}
