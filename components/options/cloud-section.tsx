import {
  CLOUD_PROVIDERS,
  CLOUD_REASONING_LEVELS,
  type CloudProvider,
  type CloudReasoning,
  type OpenAIApi,
} from '../../lib/storage/settings';
import { describedBy, Field } from './field';
import { apiKeyHintOf, BASE_URL_HINTS, modelHintOf } from './cloud-field-hints';
import type { OptionsState } from './options-state';

/** Cloud: provider, base URL, the key (masked once saved, deletable), the model, and Test connection. */
export function CloudSection({ state }: { state: OptionsState }) {
  const draft = state.draft.value;
  const settings = state.settings.value;
  if (!draft || !settings) return null;
  const errors = state.errors.value;
  const urlHelp = BASE_URL_HINTS[draft.provider];
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

      <ApiKeyField state={state} />

      <ModelField state={state} />

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

      <ConnectionTest state={state} />
    </section>
  );
}

/** The key: masked once saved, with Delete; a new one pasted replaces it on Save. */
function ApiKeyField({ state }: { state: OptionsState }) {
  const draft = state.draft.value;
  const settings = state.settings.value;
  if (!draft || !settings) return null;
  const errors = state.errors.value;
  const savedKey = settings.apiKeys[draft.provider];
  return (
    <Field
      id="api-key"
      label="API key"
      error={errors.apiKey}
      hint={apiKeyHintOf(draft.provider, providerLabelOf(draft.provider), savedKey)}
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
  );
}

/** The model: typed, or picked from the saved provider's list (reloadable). */
function ModelField({ state }: { state: OptionsState }) {
  const draft = state.draft.value;
  const settings = state.settings.value;
  if (!draft || !settings) return null;
  const errors = state.errors.value;
  const listing = state.cloudModels.value;
  const modelHint = modelHintOf(draft.provider === settings.cloud.provider, listing);
  return (
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
  );
}

/** Test connection, and what it found (testing saves the changes first). */
function ConnectionTest({ state }: { state: OptionsState }) {
  const draft = state.draft.value;
  if (!draft) return null;
  const connection = state.connection.value;
  const providerLabel = providerLabelOf(draft.provider);
  return (
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
  );
}

/** The provider's name as the page shows it. */
function providerLabelOf(provider: CloudProvider): string {
  return CLOUD_PROVIDERS.find((p) => p.id === provider)?.label ?? provider;
}
