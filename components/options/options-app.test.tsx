// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { OptionsClient } from '../../lib/messaging/options-client';
import type { LocalModelInfo } from '../../lib/messaging/options-messages';
import { createMemoryStorageArea } from '../../lib/testing/memory-storage-area';
import { IN_BROWSER_AGENT } from '../../lib/storage/grant-caller';
import { createSettingsStore, type SettingsStore } from '../../lib/storage/settings-store';
import { OptionsApp } from './options-app';
import { createOptionsState } from './options-state';

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123';
const MB = 1000 * 1000;

/** A mock agent host: the real one needs the browser's model cache and a provider on the network. */
function mockOptionsClient(overrides: Partial<OptionsClient> = {}) {
  const calls: string[] = [];
  const models: LocalModelInfo[] = [
    {
      id: 'org/small',
      label: 'Small One',
      brief: 'Quick.',
      bytes: 570 * MB,
      dtype: 'q4f16',
      cached: true,
      storedBytes: 570 * MB,
      recommended: true,
    },
    { id: 'org/large', label: 'Large One', brief: 'Careful.', bytes: 1434 * MB, dtype: 'q4f16', cached: false },
  ];
  const client: OptionsClient = {
    testConnection: async () => {
      calls.push('test');
      return { ok: true, message: 'Connected: gpt-test answered in 0.2 s.' };
    },
    listCloudModels: async () => {
      calls.push('list-cloud');
      return {
        ok: true,
        models: [
          { id: 'gpt-test', label: 'gpt-test' },
          { id: 'gpt-test-mini', label: 'gpt-test-mini' },
        ],
      };
    },
    listLocalModels: async () => ({ ok: true, models: structuredClone(models) }),
    deleteLocalModel: async (id) => {
      calls.push(`delete ${id}`);
      const m = models.find((x) => x.id === id)!;
      m.cached = false;
      delete m.storedBytes;
      return { ok: true };
    },
    deleteConversations: async () => {
      calls.push('delete conversations');
      return { ok: true };
    },
    testDevice: async (id) => {
      calls.push(`test-device ${id}`);
      const result = {
        modelId: id,
        device: 'webgpu' as const,
        dtype: 'q4f16' as const,
        testedAt: '2026-12-01T03:00:00.000Z',
        promptTokens: 1012,
        firstTokenMs: 850,
        tokensPerSecond: 24.5,
        newTokens: 64,
        memoryBytes: 600 * MB,
        memorySource: 'weights+kv' as const,
      };
      models.find((x) => x.id === id)!.deviceTest = result;
      return { ok: true, result };
    },
    ...overrides,
  };
  return { client, calls };
}

async function setup(options: { store?: SettingsStore; client?: OptionsClient } = {}) {
  const store = options.store ?? createSettingsStore({ local: createMemoryStorageArea() });
  const mock = mockOptionsClient();
  const client = options.client ?? mock.client;
  const state = createOptionsState({ store, client });
  const stop = await state.start();
  const view = render(<OptionsApp state={state} />);
  await screen.findByLabelText('Provider');
  return { store, state, calls: mock.calls, view, stop };
}

const type = (label: string | HTMLElement, value: string) =>
  fireEvent.input(typeof label === 'string' ? screen.getByLabelText(label, { exact: true }) : label, { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

afterEach(cleanup);

describe('OptionsApp', () => {
  it('links the privacy policy the extension carries', async () => {
    await setup();
    expect(screen.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe('/privacy.html');
  });

  it('names the cloud fields exactly and saves them', async () => {
    const { store } = await setup();
    const provider = screen.getByRole('combobox', { name: 'Provider' }) as HTMLSelectElement;
    expect([...provider.options].map((o) => o.text)).toEqual(['OpenAI', 'OpenAI-compatible', 'Anthropic']);
    fireEvent.change(provider, { target: { value: 'openai-compatible' } });
    type('Base URL', 'http://127.0.0.1:11434/v1/');
    type('Model', 'qwen3:4b');
    save();
    await screen.findByText('Saved.');
    expect((await store.read()).cloud).toEqual({ provider: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1', model: 'qwen3:4b' });
    // The field shows the saved, normalised value.
    expect((screen.getByLabelText('Base URL') as HTMLInputElement).value).toBe('http://127.0.0.1:11434/v1');
  });

  it('saves the reasoning level, and the OpenAI interface only for OpenAI', async () => {
    const { store } = await setup();
    fireEvent.change(screen.getByLabelText('Reasoning'), { target: { value: 'high' } });
    fireEvent.change(screen.getByLabelText('OpenAI interface'), { target: { value: 'chat' } });
    save();
    await screen.findByText('Saved.');
    expect((await store.read()).cloud).toEqual({ provider: 'openai', reasoning: 'high', openaiApi: 'chat' });
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'anthropic' } });
    expect(screen.queryByLabelText('OpenAI interface')).toBeNull();
  });

  it('masks a saved key, keeps it out of the page, and deletes it', async () => {
    const { store, view } = await setup();
    type('API key', KEY);
    save();
    await screen.findByText('Saved.');
    expect(await store.readApiKey('openai')).toBe(KEY);
    const input = screen.getByLabelText('API key') as HTMLInputElement;
    expect(input.type).toBe('password');
    expect(input.value).toBe('');
    expect(screen.getByTestId('masked-key').textContent).toContain('sk-…0123');
    expect(view.container.innerHTML).not.toContain(KEY);

    fireEvent.click(screen.getByRole('button', { name: 'Delete key' }));
    await screen.findByText('API key deleted from this browser.');
    expect(await store.readApiKey('openai')).toBeUndefined();
    expect(screen.queryByTestId('masked-key')).toBeNull();
  });

  it('fills the Model picker from the provider once a key is saved', async () => {
    const { calls } = await setup();
    type('API key', KEY);
    save();
    await waitFor(() => expect(screen.getByText(/Pick one of the provider’s 2 models/)).toBeTruthy());
    const model = screen.getByRole('combobox', { name: 'Model' }) as HTMLInputElement;
    const list = document.getElementById(model.getAttribute('list')!)!;
    expect([...list.querySelectorAll('option')].map((o) => o.value)).toEqual(['gpt-test', 'gpt-test-mini']);
    expect(calls).toContain('list-cloud');
  });

  it('marks refused fields, explains them, and writes nothing', async () => {
    const { store } = await setup();
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'openai-compatible' } });
    type('API key', 'sk-with space');
    type('Download host', 'mirror.example');
    save();
    await screen.findByText('Not saved: fix the 3 fields marked below.');
    const baseURL = screen.getByLabelText('Base URL');
    expect(baseURL.getAttribute('aria-invalid')).toBe('true');
    expect(baseURL.getAttribute('aria-describedby')).toContain('base-url-error');
    expect(screen.getByText(/needs its base URL/)).toBeTruthy();
    expect(screen.getByText('The API key has spaces or line breaks in it: paste only the key.')).toBeTruthy();
    expect(screen.getByText(/“mirror.example” needs its scheme/)).toBeTruthy();
    expect((await store.read()).cloud.provider).toBe('openai');
    expect(await store.readApiKey('openai-compatible')).toBeUndefined();
    // Typed text is kept, so fixing one field loses nothing.
    expect((screen.getByLabelText('Download host') as HTMLInputElement).value).toBe('mirror.example');
  });

  it('tests the connection after saving unsaved changes, and reports the result in words', async () => {
    const refused = mockOptionsClient({
      testConnection: async () => ({ ok: false, message: 'OpenAI refused the API key (401). Check it in the options page.' }),
    });
    const { store } = await setup({ client: refused.client });
    type('API key', KEY);
    type('Model', 'gpt-test');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText('OpenAI refused the API key (401). Check it in the options page.');
    expect(await store.readApiKey('openai')).toBe(KEY);
    expect((await store.read()).cloud.model).toBe('gpt-test');
  });

  it('does not test when the form cannot be saved', async () => {
    const { calls } = await setup();
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'openai-compatible' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText('Not tested: fix the fields marked above, then try again.');
    expect(calls).not.toContain('test');
  });

  it('shows a successful test', async () => {
    await setup();
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText('Connected: gpt-test answered in 0.2 s.');
  });

  it('lists the on-device catalog with sizes and space taken, and deletes after a second click', async () => {
    const { calls } = await setup();
    const small = screen.getByRole('radio', { name: /Small One/ }) as HTMLInputElement;
    expect(small.checked).toBe(true);
    const row = small.closest('li')!;
    expect(within(row).getByText('Downloaded · 570 MB')).toBeTruthy();
    expect(within(row).getByText(/570 MB download \(q4f16\)/)).toBeTruthy();
    expect(screen.getByText('Not downloaded')).toBeTruthy();
    expect(screen.getByText('Downloaded models take 570 MB on this device.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Delete Small One' }));
    expect(calls).not.toContain('delete org/small');
    expect(document.activeElement?.textContent).toBe('Keep');
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Small One was deleted from this device.');
    expect(calls).toContain('delete org/small');
    await screen.findByText('No model is downloaded yet.');
  });

  it('tests this device with a downloaded model: progress while it runs, then the figures and what the memory counts', async () => {
    let finish!: () => void;
    const mock = mockOptionsClient();
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const client: OptionsClient = {
      ...mock.client,
      testDevice: async (id) => {
        await gate;
        return mock.client.testDevice(id);
      },
    };
    await setup({ client });
    // Only a downloaded model can be tested.
    expect(screen.queryByRole('button', { name: 'Test this device with Large One' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Test this device with Small One' }));
    const status = await screen.findByRole('progressbar', { name: 'Testing Small One' });
    expect(status.parentElement!.textContent).toMatch(/Testing: loading Small One, reading a 1,000-token prompt/);
    expect((screen.getByRole('button', { name: 'Test this device with Small One' }) as HTMLButtonElement).disabled).toBe(true);
    finish();
    const line = await screen.findByText(/Tested on this device \(WebGPU, q4f16/);
    expect(line.textContent).toContain('First token in 0.9 s (1,012-token prompt)');
    expect(line.textContent).toContain('24.5 tokens/s writing');
    expect(line.textContent).toContain('600 MB held (the weights on this device plus the KV cache)');
    expect(screen.queryByRole('progressbar', { name: 'Testing Small One' })).toBeNull();
  });

  it('says why a device test failed, next to the model', async () => {
    const { client } = mockOptionsClient({
      testDevice: async () => ({ ok: false, message: 'The test did not finish: The model failed while generating: GPU device lost' }),
    });
    await setup({ client });
    fireEvent.click(screen.getByRole('button', { name: 'Test this device with Small One' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The test did not finish: The model failed while generating: GPU device lost');
    expect((screen.getByRole('button', { name: 'Test this device with Small One' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('saves the chosen on-device model, the download host and the agent', async () => {
    const { store } = await setup();
    fireEvent.click(screen.getByRole('radio', { name: /Large One/ }));
    fireEvent.click(screen.getByRole('radio', { name: 'Cloud' }));
    type('Download host', 'http://127.0.0.1:9000/');
    save();
    await screen.findByText('Saved.');
    const settings = await store.read();
    expect(settings.mode).toBe('cloud');
    expect(settings.local).toEqual({ modelId: 'org/large', modelHost: 'http://127.0.0.1:9000' });
  });

  it('explains a catalog the host could not read, and retries', async () => {
    let fail = true;
    const mock = mockOptionsClient();
    const client: OptionsClient = {
      ...mock.client,
      listLocalModels: async () => (fail ? { ok: false, message: 'The agent host did not answer.' } : mock.client.listLocalModels()),
    };
    await setup({ client });
    await screen.findByText('The model catalog could not be read: The agent host did not answer.');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('radio', { name: /Small One/ });
  });

  it('saves the confirmation policy and revokes an always-allowed tool', async () => {
    const store = createSettingsStore({ local: createMemoryStorageArea() });
    await store.grantTool('https://shop.example', 'add_to_cart', IN_BROWSER_AGENT);
    await setup({ store });
    expect(screen.getByText('add_to_cart')).toBeTruthy();
    // The default asks before anything not read-only; the person picks the looser policy on purpose.
    expect((screen.getByRole('radio', { name: 'Ask before anything that is not read-only' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'Ask only before consequential actions' }));
    save();
    await screen.findByText('Saved.');
    expect((await store.read()).confirmation).toBe('consequential');

    fireEvent.click(screen.getByRole('button', { name: 'Revoke add_to_cart on https://shop.example for The in-browser agent' }));
    await screen.findByText(/None yet/);
    expect(await store.isToolGranted('https://shop.example', 'add_to_cart', IN_BROWSER_AGENT)).toBe(false);
  });

  it('lists the always-allowed tools by caller, and revokes one caller’s grant without touching another’s', async () => {
    const local = createMemoryStorageArea({
      // Stored before grants had a caller: the in-browser agent's.
      'settings.grants': [{ origin: 'https://shop.example', tool: 'add_to_cart', grantedAt: 1 }],
    });
    const store = createSettingsStore({ local });
    await store.grantTool('https://shop.example', 'add_to_cart', { kind: 'desktop', name: 'Zed' });
    await store.grantTool('https://bank.example', 'pay', { kind: 'desktop', name: 'Claude Code' });
    await setup({ store });
    const groups = screen.getAllByRole('region').filter((r) => r.classList.contains('grant-caller'));
    expect(groups.map((g) => [g.getAttribute('aria-label'), g.querySelector('ul')?.textContent])).toEqual([
      ['The in-browser agent', 'add_to_cart on https://shop.exampleRevoke'],
      ['Desktop agent “Claude Code”', 'pay on https://bank.exampleRevoke'],
      ['Desktop agent “Zed”', 'add_to_cart on https://shop.exampleRevoke'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Revoke add_to_cart on https://shop.example for Desktop agent “Zed”' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Desktop agent “Zed”' })).toBeNull());
    expect(await store.isToolGranted('https://shop.example', 'add_to_cart', { kind: 'desktop', name: 'Zed' })).toBe(false);
    expect(await store.isToolGranted('https://shop.example', 'add_to_cart', IN_BROWSER_AGENT)).toBe(true);
  });

  it('adds, edits and removes per-site instructions, with field errors', async () => {
    const { store } = await setup();
    fireEvent.click(screen.getByRole('button', { name: 'Add a site' }));
    type('Origin', 'shop.example');
    type('Max steps', '50');
    fireEvent.click(screen.getByRole('button', { name: 'Add site' }));
    await screen.findByText(/needs its scheme/);
    expect(screen.getByText('Max steps must be a whole number from 1 to 20, or empty for the default.')).toBeTruthy();
    expect((await store.read()).sites).toEqual([]);

    type('Origin', 'https://shop.example/');
    type('About this site', 'To buy: search, open_product, then add_to_cart.');
    type('Max steps', '6');
    type('Allowed tools', 'search, open_product, add_to_cart');
    fireEvent.click(screen.getByRole('button', { name: 'Add site' }));
    await screen.findByText('Added https://shop.example.');
    expect((await store.read()).sites).toEqual([
      {
        origin: 'https://shop.example',
        instructions: 'To buy: search, open_product, then add_to_cart.',
        maxSteps: 6,
        tools: ['search', 'open_product', 'add_to_cart'],
      },
    ]);
    expect(screen.getByText('Up to 6 steps · Only search, open_product, add_to_cart')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Edit https://shop.example' }));
    expect((screen.getByLabelText('Max steps') as HTMLInputElement).value).toBe('6');
    type('Max steps', '');
    type('Allowed tools', '');
    fireEvent.click(screen.getByRole('button', { name: 'Update site' }));
    await screen.findByText('Updated https://shop.example.');
    expect((await store.read()).sites[0]).toEqual({
      origin: 'https://shop.example',
      instructions: 'To buy: search, open_product, then add_to_cart.',
    });

    fireEvent.click(screen.getByRole('button', { name: 'Remove https://shop.example' }));
    await screen.findByText('Removed https://shop.example.');
    expect((await store.read()).sites).toEqual([]);
  });

  it('fills in the demo shop’s example with its checkout sub-agent, and explains refused sub-agents next to their fields', async () => {
    const { store } = await setup();
    fireEvent.click(screen.getByRole('button', { name: 'Add a site' }));
    type('Origin', 'http://127.0.0.1:9999');
    fireEvent.click(screen.getByRole('button', { name: 'Use the demo shop’s example' }));
    const checkout = screen.getByRole('region', { name: 'Checkout' });
    expect((within(checkout).getByLabelText('Id') as HTMLInputElement).value).toBe('checkout');
    expect((within(checkout).getByLabelText('Its tools') as HTMLInputElement).value).toBe('get_cart, check_out');
    expect((screen.getByLabelText('Origin') as HTMLInputElement).value).toBe('http://127.0.0.1:9999');

    // A second sub-agent with an id no tool can take, and a hand-off back to checkout: a circle.
    fireEvent.click(screen.getByRole('button', { name: 'Add a sub-agent' }));
    const second = screen.getByRole('region', { name: 'Sub-agent 2' });
    type(within(second).getByLabelText('Id'), 'Pay Now');
    type(within(second).getByLabelText('Name'), 'Payment');
    type(within(checkout).getByLabelText('Hands tasks to'), 'payment');
    fireEvent.click(screen.getByRole('button', { name: 'Add site' }));
    const payment = await screen.findByRole('region', { name: 'Payment' });
    expect(within(payment).getByText(/^“Pay Now” cannot be an id/)).toBeTruthy();
    expect(
      within(checkout).getByText('There is no sub-agent “payment” on this site: hand tasks only to the ones listed here.'),
    ).toBeTruthy();
    expect(within(checkout).getByLabelText('Hands tasks to').getAttribute('aria-invalid')).toBe('true');
    expect((await store.read()).sites).toEqual([]);

    type(within(payment).getByLabelText('Id'), 'payment');
    type(within(payment).getByLabelText('Hands tasks to'), 'checkout');
    fireEvent.click(screen.getByRole('button', { name: 'Add site' }));
    expect(await within(checkout).findByText(/would hand tasks around in a circle: checkout → payment → checkout/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove Payment' }));
    type(within(checkout).getByLabelText('Hands tasks to'), '');
    fireEvent.click(screen.getByRole('button', { name: 'Add site' }));
    await screen.findByText('Added http://127.0.0.1:9999.');
    const [saved] = (await store.read()).sites;
    expect(saved.subAgents).toEqual([
      expect.objectContaining({ id: 'checkout', name: 'Checkout', tools: ['get_cart', 'check_out'], maxSteps: 4 }),
    ]);
    expect(screen.getByText('Sub-agents: Checkout (get_cart, check_out)')).toBeTruthy();
  });

  it('says there are unsaved changes, and discards them on request', async () => {
    const { store } = await setup();
    type('Model', 'gpt-test');
    expect(screen.getByText('You have unsaved changes.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('');
    expect(screen.queryByText('You have unsaved changes.')).toBeNull();
    expect((await store.read()).cloud.model).toBeUndefined();
  });

  it('saves when the form is submitted from the keyboard (Enter in a field)', async () => {
    const { store } = await setup();
    type('Model', 'gpt-test');
    fireEvent.submit(screen.getByLabelText('Model').closest('form')!);
    await screen.findByText('Saved.');
    expect((await store.read()).cloud.model).toBe('gpt-test');
  });

  it('follows changes made elsewhere (the side panel) while nothing is being edited', async () => {
    const { store } = await setup();
    await store.setConfirmationPolicy('never');
    await waitFor(() =>
      expect((screen.getByRole('radio', { name: 'Ask only when the site insists' }) as HTMLInputElement).checked).toBe(true),
    );
  });

  it('"Delete all conversations" asks first; Keep does nothing, Delete all asks the host and says what happened', async () => {
    const { calls } = await setup();
    fireEvent.click(screen.getByRole('button', { name: 'Delete all conversations' }));
    expect(screen.getByText('Delete every conversation, in every tab? This cannot be undone.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep' }));
    expect(calls).not.toContain('delete conversations');
    fireEvent.click(screen.getByRole('button', { name: 'Delete all conversations' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete all' }));
    await screen.findByText('All conversations were deleted, here and in open side panels.');
    expect(calls.filter((c) => c === 'delete conversations')).toHaveLength(1);
  });

  it('"Delete all conversations" says so when the host could not', async () => {
    const { client } = mockOptionsClient({ deleteConversations: async () => ({ ok: false, message: 'The agent host did not answer.' }) });
    await setup({ client });
    fireEvent.click(screen.getByRole('button', { name: 'Delete all conversations' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete all' }));
    await screen.findByText('The conversations were not deleted: The agent host did not answer.');
  });
});
