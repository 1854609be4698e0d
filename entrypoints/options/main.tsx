import { render } from 'preact';
import { OptionsApp } from '@/components/options/options-app';
import { createOptionsState } from '@/components/options/options-state';
import '@/components/options/options.css';
import { createOptionsClient } from '@/lib/messaging/options-client';
import { createIndexedDbStorageArea } from '@/lib/storage/indexed-db-storage-area';
import { createSettingsStore } from '@/lib/storage/settings-store';

// Settings are read and written here directly; the agent host is asked only what needs it (the key, the model cache).
const state = createOptionsState({
  // Firefox keeps the settings in the extension's IndexedDB, out of content scripts' reach (see entrypoints/background.ts).
  store: createSettingsStore({
    local: import.meta.env.FIREFOX
      ? createIndexedDbStorageArea({ indexedDB, openChannel: (name) => new BroadcastChannel(name) })
      : browser.storage.local,
  }),
  client: createOptionsClient((message) => browser.runtime.sendMessage(message)),
});
render(<OptionsApp state={state} />, document.getElementById('app')!);
void state.start();
