import type { CloudModelInfo } from '../../lib/messaging/options-messages';
import type { ApiKeyState, CloudProvider } from '../../lib/storage/settings';
import type { Loadable } from './loadable';

/** What the Base URL field says for each provider (the provider's own API unless set). */
export const BASE_URL_HINTS: Record<CloudProvider, { placeholder: string; hint: string }> = {
  openai: { placeholder: 'https://api.openai.com/v1', hint: 'Optional: leave empty for api.openai.com, or set a proxy’s address.' },
  anthropic: {
    placeholder: 'https://api.anthropic.com/v1',
    hint: 'Optional: leave empty for api.anthropic.com, or set a proxy’s address.',
  },
  'openai-compatible': {
    placeholder: 'http://localhost:11434/v1',
    hint: 'Your server’s address: Ollama http://localhost:11434/v1, LM Studio http://localhost:1234/v1, OpenRouter https://openrouter.ai/api/v1, vLLM or llama.cpp http://localhost:8000/v1.',
  },
};

/**
 * What the Model field says: how to pick the model, given whether the provider in the form is the saved one (only
 * the saved one's models can be listed) and where its listing stands.
 */
export function modelHintOf(savedProvider: boolean, listing: Loadable<CloudModelInfo[]>): string {
  if (!savedProvider) return 'Save to list this provider’s models; or type a model id.';
  switch (listing.state) {
    case 'loading':
      return 'Asking the provider for its models…';
    case 'ready':
      return listing.value.length > 0
        ? `Pick one of the provider’s ${listing.value.length} models, or type any model id.`
        : 'The provider listed no models: type the model id.';
    case 'error':
      return `The provider’s models could not be listed (${listing.message}) Type the model id.`;
    default:
      return 'Type the model id, for example gpt-5-mini or claude-sonnet-4-5. Save a key to pick from a list.';
  }
}

/** What the API key field says: a saved key can be replaced; an OpenAI-compatible server may need none. */
export function apiKeyHintOf(provider: CloudProvider, providerLabel: string, saved: ApiKeyState): string {
  if (saved.saved) return `A key is saved for ${providerLabel}. Paste a new one to replace it.`;
  return provider === 'openai-compatible'
    ? 'Only if your server asks for one (OpenRouter does; a local Ollama does not).'
    : `Your ${providerLabel} API key.`;
}
