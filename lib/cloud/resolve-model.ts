import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { CLOUD_PROVIDERS, type CloudConnection, type CloudProviderId, DEFAULT_BASE_URLS } from './cloud-settings';

/** A model ready for the AI SDK, with what was resolved. */
export interface ResolvedModel {
  model: LanguageModel;
  provider: CloudProviderId;
  /** The id at the provider ("gpt-5-mini"). */
  modelId: string;
  /** The base URL requests go to. */
  baseURL: string;
}

/**
 * Turns "provider/model" into an AI SDK model: "openai/gpt-5-mini" (Responses API; `openaiApi: 'chat'` for Chat
 * Completions), "anthropic/claude-sonnet-4-5", "openai-compatible/qwen3:4b" (any OpenAI-compatible server at
 * `baseURL`: Ollama, LM Studio, OpenRouter, vLLM, llama.cpp). The model id is everything after the first slash,
 * so OpenRouter's "openai-compatible/meta-llama/llama-3.3-70b-instruct" works.
 *
 * The key and fetch are always passed explicitly: an extension has no process.env, and the provider packages
 * would otherwise reach for globals. Throws an Error with a message for the person when the name or the
 * settings cannot work.
 */
export function resolveModel(name: string, connection: CloudConnection, deps: { fetch: typeof fetch }): ResolvedModel {
  const slash = name.indexOf('/');
  const provider = (slash > 0 ? name.slice(0, slash) : name) as CloudProviderId;
  const modelId = slash > 0 ? name.slice(slash + 1).trim() : '';
  if (!CLOUD_PROVIDERS.includes(provider)) {
    throw new Error(
      `Unknown provider "${provider}" in "${name}". Name a model as openai/<model>, anthropic/<model> or openai-compatible/<model>.`,
    );
  }
  if (!modelId) throw new Error(`No model named in "${name}". Choose a model in the extension's options page.`);
  const baseURL = normalizeBaseURL(connection.baseURL, provider);
  const apiKey = connection.apiKey.trim();
  if (!apiKey && provider !== 'openai-compatible') {
    throw new Error(`No API key for ${provider === 'openai' ? 'OpenAI' : 'Anthropic'}. Add one in the extension's options page.`);
  }

  switch (provider) {
    case 'openai': {
      const openai = createOpenAI({ apiKey, baseURL, fetch: deps.fetch });
      const model = connection.openaiApi === 'chat' ? openai.chat(modelId) : openai.responses(modelId);
      return { model, provider, modelId, baseURL };
    }
    case 'anthropic': {
      const anthropic = createAnthropic({
        apiKey,
        baseURL,
        fetch: deps.fetch,
        // Anthropic refuses calls from a browser context without this opt-in; the key is the person's own.
        headers: { 'anthropic-dangerous-direct-browser-access': 'true' },
      });
      return { model: anthropic(modelId), provider, modelId, baseURL };
    }
    case 'openai-compatible': {
      const compatible = createOpenAICompatible({
        name: compatibleProviderName(baseURL),
        baseURL,
        // Local servers need no key; sending an empty Bearer header makes some of them refuse the call.
        apiKey: apiKey || undefined,
        fetch: deps.fetch,
        includeUsage: true,
      });
      return { model: compatible.chatModel(modelId), provider, modelId, baseURL };
    }
  }
}

/** The base URL without a trailing slash; the provider's own when unset. Throws when it is not an http(s) URL. */
export function normalizeBaseURL(baseURL: string | undefined, provider: CloudProviderId): string {
  const raw = baseURL?.trim() || DEFAULT_BASE_URLS[provider];
  if (!raw) {
    throw new Error(
      'An OpenAI-compatible provider needs a base URL, for example http://localhost:11434/v1 for Ollama or http://localhost:1234/v1 for LM Studio.',
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`The base URL "${raw}" is not a URL. It looks like https://api.example.com/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`The base URL "${raw}" must start with http:// or https://.`);
  }
  return raw.replace(/\/+$/, '');
}

/** Whether a base URL points at a local Ollama (its default port), for the OLLAMA_ORIGINS hint. */
export function isOllamaBaseURL(baseURL: string | undefined): boolean {
  if (!baseURL) return false;
  try {
    return new URL(baseURL).port === '11434';
  } catch {
    return false;
  }
}

/** The name the OpenAI-compatible provider reports under (it keys provider metadata). */
function compatibleProviderName(baseURL: string): string {
  const url = new URL(baseURL);
  if (url.port === '11434') return 'ollama';
  if (url.port === '1234') return 'lmstudio';
  if (url.hostname.endsWith('openrouter.ai')) return 'openrouter';
  return 'openai-compatible';
}
