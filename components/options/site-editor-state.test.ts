import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { DEMO_SITE_PROFILE } from '../../lib/storage/demo-site-profile';
import { type GrantCaller, IN_BROWSER_AGENT } from '../../lib/storage/grant-caller';
import { createMemoryStorageArea } from '../../lib/testing/memory-storage-area';
import type { Settings } from '../../lib/storage/settings';
import { createSettingsStore } from '../../lib/storage/settings-store';
import { createSiteEditorState } from './site-editor-state';

const CLAUDE: GrantCaller = { kind: 'desktop', name: 'Claude Code' };

async function setup() {
  const store = createSettingsStore({ local: createMemoryStorageArea() });
  const settings = signal<Settings | undefined>(await store.read());
  const state = createSiteEditorState({
    store,
    settings,
    receive: (next) => {
      settings.value = next;
    },
  });
  return { store, settings, state };
}

describe('createSiteEditorState', () => {
  it('adds a site profile, with a sub-agent, and says so', async () => {
    const { store, state } = await setup();
    state.startAddSite();
    state.editSite('origin', 'https://shop.example');
    state.editSite('instructions', 'A shop.');
    state.addSubAgent();
    state.editSubAgent(0, 'id', 'checkout');
    state.editSubAgent(0, 'name', 'Checkout');
    state.editSubAgent(0, 'instructions', 'Pays.');
    expect(await state.saveSite()).toBe(true);
    expect(state.siteEditor.value).toBeUndefined();
    expect(state.siteNotice.value).toEqual({ tone: 'success', text: 'Added https://shop.example.' });
    expect((await store.read()).sites).toMatchObject([
      { origin: 'https://shop.example', instructions: 'A shop.', subAgents: [{ id: 'checkout', name: 'Checkout' }] },
    ]);
  });

  it('marks refused fields and writes nothing; editing a field clears its mark', async () => {
    const { store, state } = await setup();
    state.startAddSite();
    state.editSite('origin', 'not a url');
    state.editSite('maxSteps', 'many');
    expect(await state.saveSite()).toBe(false);
    expect(Object.keys(state.siteEditor.value?.errors ?? {}).sort()).toEqual(['maxSteps', 'origin']);
    expect((await store.read()).sites).toEqual([]);
    state.editSite('maxSteps', '5');
    expect(Object.keys(state.siteEditor.value?.errors ?? {})).toEqual(['origin']);
  });

  it('edits a saved profile in place, and removes it', async () => {
    const { store, settings, state } = await setup();
    await store.saveSiteProfile({ origin: 'https://shop.example', instructions: 'Old.' });
    // The page follows the store's changes (its subscription hands them over).
    settings.value = await store.read();
    state.startEditSite('https://shop.example');
    expect(state.siteEditor.value?.original).toBe('https://shop.example');
    state.editSite('instructions', 'New.');
    expect(await state.saveSite()).toBe(true);
    expect(state.siteNotice.value).toEqual({ tone: 'success', text: 'Updated https://shop.example.' });
    expect((await store.read()).sites).toMatchObject([{ origin: 'https://shop.example', instructions: 'New.' }]);
    await state.removeSite('https://shop.example');
    expect(state.siteNotice.value).toEqual({ tone: 'success', text: 'Removed https://shop.example.' });
    expect((await store.read()).sites).toEqual([]);
  });

  it('fills in the demo example, keeping an origin already typed', async () => {
    const { state } = await setup();
    state.startAddSite();
    state.useDemoExample();
    expect(state.siteEditor.value?.draft.origin).toBe(DEMO_SITE_PROFILE.origin);
    state.editSite('origin', 'https://mine.example');
    state.useDemoExample();
    expect(state.siteEditor.value?.draft.origin).toBe('https://mine.example');
    expect(state.siteEditor.value?.draft.subAgents.map((s) => s.id)).toEqual((DEMO_SITE_PROFILE.subAgents ?? []).map((s) => s.id));
  });

  it('revokes an "always on this site" grant', async () => {
    const { store, settings, state } = await setup();
    await store.grantTool('https://shop.example', 'add_to_cart', IN_BROWSER_AGENT);
    await store.grantTool('https://shop.example', 'add_to_cart', CLAUDE);
    await state.revokeGrant('https://shop.example', 'add_to_cart', IN_BROWSER_AGENT);
    expect(await store.isToolGranted('https://shop.example', 'add_to_cart', IN_BROWSER_AGENT)).toBe(false);
    // Another caller's grant of the same tool stays.
    expect(settings.value?.grants.map((g) => g.caller)).toEqual([CLAUDE]);
    await state.revokeGrant('https://shop.example', 'add_to_cart', CLAUDE);
    expect(settings.value?.grants).toEqual([]);
  });
});
