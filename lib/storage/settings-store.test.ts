import { describe, expect, it } from 'vitest';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { type GrantCaller, IN_BROWSER_AGENT } from './grant-caller';
import { DEFAULT_SETTINGS, type Settings } from './settings';
import { createSettingsStore, SETTINGS_KEYS } from './settings-store';
import { SettingsValidationError } from './settings-validation-error';
import type { StorageArea } from '../messaging/storage-area';

const KEY = 'sk-proj-0123456789abcdefghijklmnopqrstuvwxyz';

function setup() {
  const local = createMemoryStorageArea();
  return { local, store: createSettingsStore({ local }) };
}

/** Everything an area holds, as JSON text, to look for a key anywhere in it. */
async function dump(area: StorageArea): Promise<string> {
  const keys: string[] = [];
  // The memory area has no "get all": ask for every key the store can write.
  for (const k of Object.values(SETTINGS_KEYS)) {
    if (typeof k === 'string') keys.push(k);
    else for (const p of ['openai', 'openai-compatible', 'anthropic'] as const) keys.push(k(p));
  }
  return JSON.stringify(await area.get(keys));
}

describe('createSettingsStore', () => {
  it('reads the defaults from empty storage', async () => {
    const { store } = setup();
    expect(await store.read()).toEqual(DEFAULT_SETTINGS);
  });

  it('saves and reads back every section', async () => {
    const { store } = setup();
    await store.setMode('cloud');
    await store.saveLocal({ modelId: 'onnx-community/Qwen3-0.6B-ONNX', modelHost: 'http://127.0.0.1:9000/' });
    await store.saveCloud({ provider: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1/', model: 'llama3.2' });
    await store.setConfirmationPolicy('non-read-only');
    await store.saveSiteProfile({ origin: 'https://shop.example', instructions: 'Search first.', maxSteps: '5' });
    const settings = await store.read();
    expect(settings).toMatchObject({
      mode: 'cloud',
      local: { modelId: 'onnx-community/Qwen3-0.6B-ONNX', modelHost: 'http://127.0.0.1:9000' },
      cloud: { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.2' },
      confirmation: 'non-read-only',
      sites: [{ origin: 'https://shop.example', instructions: 'Search first.', maxSteps: 5 }],
    } satisfies Partial<Settings>);
  });

  it('keeps the key under its own storage key, shows only its mask, and deletes it', async () => {
    const { store, local } = setup();
    await store.saveCloud({ provider: 'openai', model: 'gpt-5-mini' });
    expect(await store.saveApiKey('openai', `  ${KEY}  `)).toEqual({ saved: true, masked: 'sk-…wxyz' });

    const settings = await store.read();
    expect(settings.apiKeys.openai).toEqual({ saved: true, masked: 'sk-…wxyz' });
    expect(settings.apiKeys.anthropic).toEqual({ saved: false });
    expect(JSON.stringify(settings)).not.toContain(KEY);
    expect(await local.get([SETTINGS_KEYS.apiKey('openai')])).toEqual({ [SETTINGS_KEYS.apiKey('openai')]: KEY });
    const { [SETTINGS_KEYS.apiKey('openai')]: _secret, ...rest } = JSON.parse(await dump(local));
    expect(JSON.stringify(rest)).not.toContain(KEY);
    expect(await store.readApiKey('openai')).toBe(KEY);

    await store.deleteApiKey('openai');
    expect((await store.read()).apiKeys.openai).toEqual({ saved: false });
    expect(await store.readApiKey('openai')).toBeUndefined();
    expect(await dump(local)).not.toContain(KEY);
  });

  it('refuses bad input with per-field messages and writes nothing', async () => {
    const { store } = setup();
    await store.saveCloud({ provider: 'openai', model: 'gpt-5-mini' });
    const error = await store.saveCloud({ provider: 'openai-compatible', baseURL: 'ftp://x' }).catch((e) => e);
    expect(error).toBeInstanceOf(SettingsValidationError);
    expect(error.errors.baseURL).toMatch(/https:\/\/ or http:\/\//);
    expect((await store.read()).cloud).toEqual({ provider: 'openai', model: 'gpt-5-mini' });

    const keyError = await store.saveApiKey('openai', 'sk-…wxyz').catch((e) => e);
    expect(keyError.errors.apiKey).toMatch(/masked key/);
    expect((await store.read()).apiKeys.openai.saved).toBe(false);

    const hostError = await store.saveLocal({ modelHost: 'huggingface.co' }).catch((e) => e);
    expect(hostError.errors.modelHost).toMatch(/needs its scheme/);
    expect((await store.read()).local.modelHost).toBe('https://huggingface.co');
  });

  it('tells the host what is missing before it can call the provider', async () => {
    const { store } = setup();
    expect(await store.cloudSettings()).toEqual({
      ok: false,
      error: 'No API key is saved for OpenAI: add yours in the Cloud section of the options page.',
    });
    await store.saveApiKey('openai', KEY);
    expect(await store.cloudSettings()).toEqual({
      ok: false,
      error: 'No OpenAI model is chosen: pick one in the Cloud section of the options page.',
    });
    expect(await store.cloudSettings({ requireModel: false })).toEqual({
      ok: true,
      value: { provider: 'openai', apiKey: KEY, model: '' },
    });
    await store.saveCloud({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    // The OpenAI key is never handed out for another provider.
    expect(await store.cloudSettings()).toMatchObject({ ok: false, error: expect.stringContaining('Anthropic') });
  });

  it('hands the host the reasoning level and the OpenAI API with the key', async () => {
    const { store } = setup();
    await store.saveCloud({ provider: 'openai', model: 'o4-mini', reasoning: 'low', openaiApi: 'chat' });
    await store.saveApiKey('openai', KEY);
    expect(await store.cloudSettings()).toEqual({
      ok: true,
      value: { provider: 'openai', apiKey: KEY, model: 'o4-mini', reasoning: 'low', openaiApi: 'chat' },
    });
  });

  it('lets an OpenAI-compatible server go without a key', async () => {
    const { store } = setup();
    await store.saveCloud({ provider: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1', model: 'qwen3' });
    expect(await store.cloudSettings()).toEqual({
      ok: true,
      value: { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1', apiKey: '', model: 'qwen3' },
    });
  });

  it('adds, edits (including the origin) and removes site profiles, refusing a second profile for one origin', async () => {
    const { store } = setup();
    await store.saveSiteProfile({ origin: 'https://a.example', instructions: 'A' });
    await store.saveSiteProfile({ origin: 'https://b.example', instructions: 'B' });
    const duplicate = await store.saveSiteProfile({ origin: 'https://a.example/', instructions: 'again' }).catch((e) => e);
    expect(duplicate.errors.origin).toBe('https://a.example already has its own settings: edit those instead.');

    await store.saveSiteProfile({ origin: 'https://a2.example', instructions: 'A2', tools: 'search' }, 'https://a.example');
    expect((await store.read()).sites).toEqual([
      { origin: 'https://a2.example', instructions: 'A2', tools: ['search'] },
      { origin: 'https://b.example', instructions: 'B' },
    ]);
    const clash = await store.saveSiteProfile({ origin: 'https://b.example', instructions: '' }, 'https://a2.example').catch((e) => e);
    expect(clash).toBeInstanceOf(SettingsValidationError);

    await store.removeSiteProfile('https://a2.example');
    expect((await store.read()).sites.map((s) => s.origin)).toEqual(['https://b.example']);
  });

  it('maps a page URL to its site agent', async () => {
    const { store } = setup();
    await store.saveSiteProfile({ origin: 'https://shop.example', instructions: 'Search first.', maxSteps: 3, tools: ['search'] });
    expect(await store.siteAgentFor('https://shop.example/cart')).toEqual({
      id: 'https://shop.example',
      instructions: 'Search first.',
      maxSteps: 3,
      tools: ['search'],
    });
    expect(await store.siteAgentFor('https://elsewhere.example/')).toBeUndefined();
  });

  it('records "always on this site" grants without duplicates, even when written at once', async () => {
    const { store } = setup();
    await Promise.all([
      store.grantTool('https://shop.example/', 'add_to_cart', IN_BROWSER_AGENT),
      store.grantTool('https://shop.example', 'checkout', IN_BROWSER_AGENT),
      store.grantTool('https://shop.example', 'add_to_cart', IN_BROWSER_AGENT),
    ]);
    expect((await store.read()).grants.map((g) => `${g.origin} ${g.tool}`)).toEqual([
      'https://shop.example add_to_cart',
      'https://shop.example checkout',
    ]);
    expect(await store.isToolGranted('https://shop.example', 'checkout', IN_BROWSER_AGENT)).toBe(true);
    expect(await store.isToolGranted('https://other.example', 'checkout', IN_BROWSER_AGENT)).toBe(false);
    await store.revokeGrant('https://shop.example', 'checkout', IN_BROWSER_AGENT);
    expect(await store.isToolGranted('https://shop.example', 'checkout', IN_BROWSER_AGENT)).toBe(false);
    await expect(store.grantTool('not an origin', 'x', IN_BROWSER_AGENT)).rejects.toBeInstanceOf(SettingsValidationError);
  });

  it('keeps grants per caller: one caller’s grant is not another’s, and revoking one leaves the others', async () => {
    const { store } = setup();
    const claude: GrantCaller = { kind: 'desktop', name: 'Claude Code' };
    const cursor: GrantCaller = { kind: 'desktop', name: 'Cursor' };
    await store.grantTool('https://shop.example', 'add_to_cart', claude);
    expect(await store.isToolGranted('https://shop.example', 'add_to_cart', claude)).toBe(true);
    expect(await store.isToolGranted('https://shop.example', 'add_to_cart', cursor)).toBe(false);
    expect(await store.isToolGranted('https://shop.example', 'add_to_cart', IN_BROWSER_AGENT)).toBe(false);
    await store.grantTool('https://shop.example', 'add_to_cart', IN_BROWSER_AGENT);
    expect((await store.read()).grants.map((g) => g.caller)).toEqual([claude, IN_BROWSER_AGENT]);
    await store.revokeGrant('https://shop.example', 'add_to_cart', claude);
    expect((await store.read()).grants.map((g) => g.caller)).toEqual([IN_BROWSER_AGENT]);
    // A caller that cannot be told apart from others holds no grant.
    for (const nobody of [{ kind: 'desktop', name: '' }, { kind: 'desktop', name: 'MCP client' }, { kind: 'someone' }]) {
      await expect(store.grantTool('https://shop.example', 'x', nobody as GrantCaller)).rejects.toBeInstanceOf(SettingsValidationError);
    }
  });

  it('reads grants stored before grants had a caller as the in-browser agent’s, loses none, and stores them so on the next grant', async () => {
    const local = createMemoryStorageArea({
      [SETTINGS_KEYS.grants]: [
        { origin: 'https://shop.example', tool: 'add_to_cart', grantedAt: 1 },
        { origin: 'https://bank.example', tool: 'pay', grantedAt: 2 },
        // Not a caller: dropped rather than guessed.
        { origin: 'https://shop.example', tool: 'odd', grantedAt: 3, caller: { kind: 'desktop' } },
      ],
    });
    const store = createSettingsStore({ local });
    expect((await store.read()).grants).toEqual([
      { origin: 'https://shop.example', tool: 'add_to_cart', caller: IN_BROWSER_AGENT, grantedAt: 1 },
      { origin: 'https://bank.example', tool: 'pay', caller: IN_BROWSER_AGENT, grantedAt: 2 },
    ]);
    expect(await store.isToolGranted('https://bank.example', 'pay', IN_BROWSER_AGENT)).toBe(true);
    expect(await store.isToolGranted('https://bank.example', 'pay', { kind: 'desktop', name: 'Claude Code' })).toBe(false);
    await store.grantTool('https://shop.example', 'check_out', { kind: 'desktop', name: 'Claude Code' });
    expect((await local.get([SETTINGS_KEYS.grants]))[SETTINGS_KEYS.grants]).toEqual([
      { origin: 'https://shop.example', tool: 'add_to_cart', caller: IN_BROWSER_AGENT, grantedAt: 1 },
      { origin: 'https://bank.example', tool: 'pay', caller: IN_BROWSER_AGENT, grantedAt: 2 },
      {
        origin: 'https://shop.example',
        tool: 'check_out',
        caller: { kind: 'desktop', name: 'Claude Code' },
        grantedAt: expect.any(Number),
      },
    ]);
  });

  it('reads malformed stored values as defaults instead of failing', async () => {
    const local = createMemoryStorageArea({
      [SETTINGS_KEYS.mode]: 'turbo',
      [SETTINGS_KEYS.local]: { modelHost: 'nonsense' },
      [SETTINGS_KEYS.sites]: [{ origin: 'https://ok.example', instructions: 'fine' }, { origin: 42 }, null],
      [SETTINGS_KEYS.grants]: 'none',
      [SETTINGS_KEYS.cloud]: { provider: 'gemini', model: 7 },
      [SETTINGS_KEYS.confirmation]: 'sometimes',
    });
    const settings = await createSettingsStore({ local }).read();
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, sites: [{ origin: 'https://ok.example', instructions: 'fine' }] });
  });

  it('moves the old default policy to the new one, and keeps a policy the person picked', async () => {
    // Every Save on the options page used to store 'consequential', the old default, picked or not.
    const legacy = createMemoryStorageArea({ [SETTINGS_KEYS.confirmation]: 'consequential' });
    expect((await createSettingsStore({ local: legacy }).read()).confirmation).toBe('non-read-only');
    const looser = createMemoryStorageArea({ [SETTINGS_KEYS.confirmation]: 'never' });
    expect((await createSettingsStore({ local: looser }).read()).confirmation).toBe('never');
    const { store } = setup();
    expect((await store.read()).confirmation).toBe('non-read-only');
    await store.setConfirmationPolicy('consequential');
    expect((await store.read()).confirmation).toBe('consequential');
  });

  it('tells subscribers about changes from any context, never with the key', async () => {
    const { store, local } = setup();
    const other = createSettingsStore({ local });
    const seen: Settings[] = [];
    const stop = store.subscribe((s) => seen.push(s));
    await other.setConfirmationPolicy('never');
    await other.saveApiKey('anthropic', KEY);
    await new Promise((r) => setTimeout(r, 0));
    expect(seen.at(-1)?.confirmation).toBe('never');
    expect(seen.at(-1)?.apiKeys.anthropic).toEqual({ saved: true, masked: 'sk-…wxyz' });
    expect(JSON.stringify(seen)).not.toContain(KEY);
    stop();
    const count = seen.length;
    await other.setMode('cloud');
    await new Promise((r) => setTimeout(r, 0));
    expect(seen.length).toBe(count);
  });
});
