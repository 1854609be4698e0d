import { describe, expect, it } from 'vitest';
import { apiKeyHintOf, BASE_URL_HINTS, modelHintOf } from './cloud-field-hints';

describe('modelHintOf', () => {
  it('says how to pick the model at each stage of the listing', () => {
    expect(modelHintOf(false, { state: 'ready', value: [] })).toBe('Save to list this provider’s models; or type a model id.');
    expect(modelHintOf(true, { state: 'idle' })).toMatch(/^Type the model id/);
    expect(modelHintOf(true, { state: 'loading' })).toBe('Asking the provider for its models…');
    expect(modelHintOf(true, { state: 'ready', value: [{ id: 'a', label: 'a' }] })).toBe(
      'Pick one of the provider’s 1 models, or type any model id.',
    );
    expect(modelHintOf(true, { state: 'ready', value: [] })).toBe('The provider listed no models: type the model id.');
    expect(modelHintOf(true, { state: 'error', message: 'HTTP 401.' })).toBe(
      'The provider’s models could not be listed (HTTP 401.) Type the model id.',
    );
  });
});

describe('apiKeyHintOf', () => {
  it('offers to replace a saved key, and says a compatible server may need none', () => {
    expect(apiKeyHintOf('openai', 'OpenAI', { saved: true, masked: 'sk-…abcd' })).toBe(
      'A key is saved for OpenAI. Paste a new one to replace it.',
    );
    expect(apiKeyHintOf('openai-compatible', 'OpenAI-compatible', { saved: false })).toMatch(/^Only if your server asks/);
    expect(apiKeyHintOf('anthropic', 'Anthropic', { saved: false })).toBe('Your Anthropic API key.');
  });

  it('has a base URL hint for every provider', () => {
    expect(Object.keys(BASE_URL_HINTS).sort()).toEqual(['anthropic', 'openai', 'openai-compatible']);
  });
});
