import { describe, expect, it } from 'vitest';
import { parseBaseURL, validateApiKey, validateCloudPreferences, validateModelHost, validateSiteProfile } from './validate-settings';

describe('validateSiteProfile', () => {
  it('normalises a profile typed in a form', () => {
    expect(
      validateSiteProfile({
        origin: 'https://Shop.example/',
        instructions: '  Buy things.  ',
        maxSteps: ' 8 ',
        tools: 'search, add_to_cart\nsearch',
      }),
    ).toEqual({
      ok: true,
      value: { origin: 'https://shop.example', instructions: 'Buy things.', maxSteps: 8, tools: ['search', 'add_to_cart'] },
    });
  });

  it('leaves max steps and tools out when empty (the adapter default, every tool)', () => {
    expect(validateSiteProfile({ origin: 'https://a.example', instructions: '', maxSteps: '', tools: '  ' })).toEqual({
      ok: true,
      value: { origin: 'https://a.example', instructions: '' },
    });
  });

  it('reports every wrong field at once, by name', () => {
    const result = validateSiteProfile({ origin: 'shop', instructions: 'x'.repeat(4001), maxSteps: '21', tools: [] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(['instructions', 'maxSteps', 'origin']);
    expect(result.errors.maxSteps).toBe('Max steps must be a whole number from 1 to 20, or empty for the default.');
    expect(result.errors.instructions).toContain('4001 characters');
  });

  it('refuses max steps that are not whole numbers in range', () => {
    for (const maxSteps of [0, 21, 2.5, '3 steps', '-1', Number.NaN]) {
      expect(validateSiteProfile({ origin: 'https://a.example', instructions: '', maxSteps }).ok).toBe(false);
    }
    for (const maxSteps of [1, 20, '1', '20']) {
      expect(validateSiteProfile({ origin: 'https://a.example', instructions: '', maxSteps }).ok).toBe(true);
    }
  });

  it('refuses a tool name with spaces when given as a list', () => {
    const result = validateSiteProfile({ origin: 'https://a.example', instructions: '', tools: ['add to cart'] });
    expect(result.ok ? '' : result.errors.tools).toMatch(/not a tool name/);
  });
});

describe('validateCloudPreferences', () => {
  it('accepts each provider, trimming and dropping a trailing slash from the base URL', () => {
    expect(validateCloudPreferences({ provider: 'openai', model: ' gpt-5-mini ' })).toEqual({
      ok: true,
      value: { provider: 'openai', model: 'gpt-5-mini' },
    });
    expect(
      validateCloudPreferences({ provider: 'openai-compatible', baseURL: 'http://localhost:11434/v1/', model: 'llama3.2:3b' }),
    ).toEqual({
      ok: true,
      value: { provider: 'openai-compatible', baseURL: 'http://localhost:11434/v1', model: 'llama3.2:3b' },
    });
  });

  it('needs a base URL for an OpenAI-compatible provider, and only an http(s) one', () => {
    const missing = validateCloudPreferences({ provider: 'openai-compatible', baseURL: ' ' });
    expect(missing.ok ? '' : missing.errors.baseURL).toMatch(/needs its base URL/);
    const wrong = validateCloudPreferences({ provider: 'anthropic', baseURL: 'file:///etc' });
    expect(wrong.ok ? '' : wrong.errors.baseURL).toBe('The base URL must start with https:// or http://, not file://.');
  });

  it('keeps a reasoning level and the OpenAI API choice, leaving defaults unstored', () => {
    expect(validateCloudPreferences({ provider: 'openai', model: 'o4-mini', reasoning: 'high', openaiApi: 'chat' })).toEqual({
      ok: true,
      value: { provider: 'openai', model: 'o4-mini', reasoning: 'high', openaiApi: 'chat' },
    });
    expect(validateCloudPreferences({ provider: 'openai', reasoning: 'provider-default', openaiApi: 'responses' })).toEqual({
      ok: true,
      value: { provider: 'openai' },
    });
    // Only OpenAI has two APIs.
    expect(validateCloudPreferences({ provider: 'anthropic', openaiApi: 'chat' })).toEqual({ ok: true, value: { provider: 'anthropic' } });
    const bad = validateCloudPreferences({ provider: 'openai', reasoning: 'extreme', openaiApi: 'soap' });
    expect(bad.ok ? {} : bad.errors).toEqual({
      reasoning: 'Choose a reasoning level: Provider default, None, Low, Medium, High.',
      openaiApi: 'Choose Responses or Chat Completions.',
    });
  });

  it('refuses an unknown provider and a model id with spaces', () => {
    const result = validateCloudPreferences({ provider: 'gemini', model: 'two words' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.provider).toBe('Choose a provider: OpenAI, OpenAI-compatible, Anthropic.');
    expect(result.errors.model).toMatch(/no spaces/);
  });
});

describe('parseBaseURL', () => {
  it('refuses credentials, queries and fragments', () => {
    expect(parseBaseURL('https://key@api.example.com/v1')).toEqual({
      ok: false,
      error: 'Put the key in the API key field, not in the base URL.',
    });
    expect(parseBaseURL('https://api.example.com/v1?x=1').ok).toBe(false);
    expect(parseBaseURL('api.example.com').ok).toBe(false);
    expect(parseBaseURL('localhost:11434/v1')).toEqual({
      ok: false,
      error: '“localhost:11434/v1” needs its scheme: write https://localhost:11434/v1 (or http:// for a local server).',
    });
  });
});

describe('validateApiKey', () => {
  it('trims a pasted key', () => {
    expect(validateApiKey('  sk-abc123\n')).toEqual({ ok: true, value: 'sk-abc123' });
  });

  it('refuses empty keys, inner spaces, the masked form and non-ASCII', () => {
    expect(validateApiKey(' ')).toEqual({ ok: false, error: 'Paste your API key first.' });
    expect(validateApiKey('sk-abc def')).toEqual({ ok: false, error: 'The API key has spaces or line breaks in it: paste only the key.' });
    expect(validateApiKey('sk-…abcd')).toEqual({
      ok: false,
      error: 'That is the masked key shown here, not the key itself: paste the full key from your provider.',
    });
    expect(validateApiKey('sk-ключ').ok).toBe(false);
  });
});

describe('validateModelHost', () => {
  it('takes an http(s) origin and explains with huggingface.co as the example', () => {
    expect(validateModelHost('https://hf-mirror.com/')).toEqual({ ok: true, value: 'https://hf-mirror.com' });
    const bad = validateModelHost('');
    expect(bad.ok ? '' : bad.error).toBe('Enter an origin, for example https://huggingface.co.');
  });
});

describe('validateSiteProfile: sub-agents', () => {
  const site = { origin: 'https://shop.example', instructions: 'A shop.' };
  const checkout = {
    id: 'checkout',
    name: 'Checkout',
    instructions: 'View the cart, then check out.',
    tools: 'view_cart, check_out',
    maxSteps: '4',
  };
  const errorsOf = (subAgents: unknown[]) => {
    const result = validateSiteProfile({ ...site, subAgents: subAgents as never });
    return result.ok ? {} : result.errors;
  };

  it('normalises sub-agents: tools and hand-offs become lists, steps a number', () => {
    const result = validateSiteProfile({
      ...site,
      subAgents: [
        { ...checkout, subAgents: 'payment' },
        { id: 'payment', name: ' Payment ', instructions: '', tools: ['check_out'] },
      ],
    });
    expect(result).toEqual({
      ok: true,
      value: {
        ...site,
        subAgents: [
          {
            id: 'checkout',
            name: 'Checkout',
            instructions: 'View the cart, then check out.',
            tools: ['view_cart', 'check_out'],
            maxSteps: 4,
            subAgents: ['payment'],
          },
          { id: 'payment', name: 'Payment', instructions: '', tools: ['check_out'] },
        ],
      },
    });
  });

  it('refuses ids that cannot name a tool, and repeated ids, next to the field, in words', () => {
    const errors = errorsOf([
      checkout,
      { ...checkout },
      { ...checkout, id: 'Check Out' },
      { ...checkout, id: '' },
      { ...checkout, id: 'a'.repeat(41) },
    ]);
    expect(errors['subAgents.0.id']).toBeUndefined();
    expect(errors['subAgents.1.id']).toBe('Another sub-agent already has the id “checkout”: each needs its own.');
    expect(errors['subAgents.2.id']).toMatch(/^“Check Out” cannot be an id: use lower-case letters/);
    expect(errors['subAgents.3.id']).toBe('Give the sub-agent an id, for example checkout.');
    expect(errors['subAgents.4.id']).toMatch(/cannot be an id/);
  });

  it('needs a name and valid steps and tool names', () => {
    const errors = errorsOf([{ ...checkout, name: ' ', maxSteps: '0', tools: ['view cart'] }]);
    expect(Object.keys(errors).sort()).toEqual(['subAgents.0.maxSteps', 'subAgents.0.name', 'subAgents.0.tools']);
  });

  it('refuses hand-offs to unknown sub-agents and to itself', () => {
    expect(errorsOf([{ ...checkout, subAgents: 'billing' }])['subAgents.0.subAgents']).toBe(
      'There is no sub-agent “billing” on this site: hand tasks only to the ones listed here.',
    );
    expect(errorsOf([{ ...checkout, subAgents: 'checkout' }])['subAgents.0.subAgents']).toBe('“Checkout” cannot hand tasks to itself.');
  });

  it('refuses cycles, and says which sub-agents go round', () => {
    const errors = errorsOf([
      { ...checkout, subAgents: 'payment' },
      { id: 'payment', name: 'Payment', instructions: '', subAgents: 'checkout' },
    ]);
    expect(errors['subAgents.0.subAgents']).toBe(
      'These sub-agents would hand tasks around in a circle: checkout → payment → checkout. Remove one of the hand-offs.',
    );
  });

  it('refuses chains deeper than delegation goes (2)', () => {
    const errors = errorsOf([
      { ...checkout, subAgents: 'payment' },
      { id: 'payment', name: 'Payment', instructions: '', subAgents: 'receipt' },
      { id: 'receipt', name: 'Receipt', instructions: '' },
    ]);
    expect(errors['subAgents.0.subAgents']).toMatch(/^“payment” hands tasks on itself, and sub-agents nest at most 2 deep/);
    expect(errors['subAgents.1.subAgents']).toBeUndefined();
  });

  it('attack: a stored profile with hostile sub-agent values is refused, not half-kept', () => {
    const errors = errorsOf([null, { id: 'x\ny', name: 'A\u0000', instructions: 5 }, 'checkout']);
    expect(errors['subAgents.0.id']).toBeDefined();
    expect(errors['subAgents.1.id']).toBeDefined();
    expect(errors['subAgents.1.name']).toBeDefined();
    expect(errors['subAgents.2.id']).toBeDefined();
    expect(errorsOf(Array.from({ length: 9 }, (_, i) => ({ ...checkout, id: `a${i}` }))).subAgents).toMatch(/at most 8 sub-agents/);
  });
});
