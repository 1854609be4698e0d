import {
  CLOUD_PROVIDERS,
  CLOUD_REASONING_LEVELS,
  type CloudProvider,
  type CloudReasoning,
  type OpenAIApi,
} from '../../lib/storage/settings';
import { describedBy, Field } from './field';
import type { OptionsState } from './options-state';

/** What the Base URL field says for each provider (the provider's own API unless set). */
const BASE_URL_HINTS: Record<CloudProvider, { placeholder: string; hint: string }> = {
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

/** Cloud: provider, base URL, the key (masked once saved, deletable), the model, and Test connection. */
export function CloudSection({ state }: { state: OptionsState }) {
  const draft = state.draft.value;
  const settings = state.settings.value;
  if (!draft || !settings) return null;
  const errors = state.errors.value;
  const providerLabel = CLOUD_PROVIDERS.find((p) => p.id === draft.provider)?.label ?? draft.provider;
  const savedKey = settings.apiKeys[draft.provider];
  const listing = state.cloudModels.value;
  const connection = state.connection.value;
  const urlHelp = BASE_URL_HINTS[draft.provider];
  const modelHint =
    draft.provider !== settings.cloud.provider
      ? 'Save to list this provider’s models; or type a model id.'
      : listing.state === 'loading'
        ? 'Asking the provider for its models…'
        : listing.state === 'ready'
          ? listing.value.length > 0
            ? `Pick one of the provider’s ${listing.value.length} models, or type any model id.`
            : 'The provider listed no models: type the model id.'
          : listing.state === 'error'
            ? `The provider’s models could not be listed (${listing.message}) Type the model id.`
            : 'Type the model id, for example gpt-5-mini or claude-sonnet-4-5. Save a key to pick from a list.';

  return (
    <section class="card" aria-labelledby="cloud-title">
      <h2 id="cloud-title">Cloud</h2>
      <p class="intro">
        Your key is kept in this browser only (never synced), used only by the extension’s agent host, and sent only to the provider you
        choose.
      </p>

      <div class="grid">
        <Field id="provider" label="Provider" error={errors.provider}>
          <select
            id="provider"
            value={draft.provider}
            aria-invalid={!!errors.provider}
            aria-describedby={describedBy('provider', false, errors.provider)}
            onChange={(e) => state.edit('provider', e.currentTarget.value as CloudProvider)}
          >
            {CLOUD_PROVIDERS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </Field>

        <Field id="base-url" label="Base URL" hint={urlHelp.hint} error={errors.baseURL}>
          <input
            id="base-url"
            type="url"
            inputMode="url"
            spellcheck={false}
            autoComplete="off"
            placeholder={urlHelp.placeholder}
            value={draft.baseURL}
            aria-invalid={!!errors.baseURL}
            aria-describedby={describedBy('base-url', true, errors.baseURL)}
            onInput={(e) => state.edit('baseURL', e.currentTarget.value)}
          />
        </Field>
      </div>

      <Field
        id="api-key"
        label="API key"
        error={errors.apiKey}
        hint={
          savedKey.saved
            ? `A key is saved for ${providerLabel}. Paste a new one to replace it.`
            : draft.provider === 'openai-compatible'
              ? 'Only if your server asks for one (OpenRouter does; a local Ollama does not).'
              : `Your ${providerLabel} API key.`
        }
      >
        <div class="key-row">
          <input
            id="api-key"
            type="password"
            spellcheck={false}
            autoComplete="off"
            placeholder={savedKey.saved ? 'Paste a new key to replace the saved one' : ''}
            value={draft.apiKey}
            aria-invalid={!!errors.apiKey}
            aria-describedby={describedBy('api-key', true, errors.apiKey)}
            onInput={(e) => state.edit('apiKey', e.currentTarget.value)}
          />
          {savedKey.saved ? (
            <>
              <span class="masked-key" data-testid="masked-key">
                <span class="visually-hidden">Saved key: </span>
                {savedKey.masked}
              </span>
              <button type="button" class="button button--quiet" onClick={() => void state.deleteApiKey()}>
                Delete key
              </button>
            </>
          ) : null}
        </div>
      </Field>

      <Field id="model" label="Model" hint={modelHint} error={errors.model}>
        <div class="key-row">
          <input
            id="model"
            type="text"
            list="model-options"
            spellcheck={false}
            autoComplete="off"
            placeholder={draft.provider === 'anthropic' ? 'claude-sonnet-4-5' : draft.provider === 'openai' ? 'gpt-5-mini' : 'qwen3:4b'}
            value={draft.model}
            aria-invalid={!!errors.model}
            aria-describedby={describedBy('model', true, errors.model)}
            onInput={(e) => state.edit('model', e.currentTarget.value)}
          />
          <datalist id="model-options">
            {listing.state === 'ready' && draft.provider === settings.cloud.provider
              ? listing.value.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.label !== m.id ? m.label : ''}
                  </option>
                ))
              : null}
          </datalist>
          {draft.provider === settings.cloud.provider && listing.state !== 'idle' ? (
            <button
              type="button"
              class="button button--quiet"
              onClick={() => void state.refreshCloudModels()}
              disabled={listing.state === 'loading'}
            >
              Reload list
            </button>
          ) : null}
        </div>
      </Field>

      <div class="grid grid--even">
        <Field
          id="reasoning"
          label="Reasoning"
          hint="How much the model thinks before it answers, for models that can. More is slower and costs more."
          error={errors.reasoning}
        >
          <select
            id="reasoning"
            value={draft.reasoning}
            aria-invalid={!!errors.reasoning}
            aria-describedby={describedBy('reasoning', true, errors.reasoning)}
            onChange={(e) => state.edit('reasoning', e.currentTarget.value as CloudReasoning)}
          >
            {CLOUD_REASONING_LEVELS.map((l) => (
              <option key={l.id} value={l.id}>
                {l.label}
              </option>
            ))}
          </select>
        </Field>
        {draft.provider === 'openai' ? (
          <Field
            id="openai-api"
            label="OpenAI interface"
            hint="Chat Completions only for proxies that do not speak the Responses API."
            error={errors.openaiApi}
          >
            <select
              id="openai-api"
              value={draft.openaiApi}
              aria-invalid={!!errors.openaiApi}
              aria-describedby={describedBy('openai-api', true, errors.openaiApi)}
              onChange={(e) => state.edit('openaiApi', e.currentTarget.value as OpenAIApi)}
            >
              <option value="responses">Responses (recommended)</option>
              <option value="chat">Chat Completions</option>
            </select>
          </Field>
        ) : null}
      </div>

      <div class="test-row">
        <button type="button" class="button" onClick={() => void state.testConnection()} aria-describedby="connection-result">
          Test connection
        </button>
        <p
          id="connection-result"
          class={`notice${connection.state === 'done' ? (connection.ok ? ' notice--success' : ' notice--error') : ''}`}
          role="status"
          aria-live="polite"
        >
          {connection.state === 'testing'
            ? `Testing the connection to ${providerLabel}…`
            : connection.state === 'done'
              ? connection.message
              : state.dirty.value
                ? 'Testing saves your changes first.'
                : ''}
        </p>
      </div>
    </section>
  );
}
