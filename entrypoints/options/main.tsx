import { render } from 'preact';
import { OptionsApp } from '@/components/options/options-app';
import { createOptionsState } from '@/components/options/options-state';
import '@/components/options/options.css';
import '@/components/sharing/sharing.css';
import { createOptionsClient } from '@/lib/messaging/options-client';
import { createIndexedDbStorageArea } from '@/lib/storage/indexed-db-storage-area';
import { createSettingsStore } from '@/lib/storage/settings-store';
import { createSharingStore, type SharingPortLike } from '@/components/sharing/create-sharing-store';
import { SHARING_PORT_NAME } from '@/lib/messaging/mcp-bridge-messages';

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
// Sharing with desktop agents is the agent host's to change (lib/mcp-bridge): asked over its own Port.
const sharing = createSharingStore({
  connect: () => browser.runtime.connect({ name: SHARING_PORT_NAME }) as unknown as SharingPortLike,
  wake: () => browser.runtime.sendMessage({ type: 'host/ping' }),
});
// Firefox gives content scripts connectNative too: there the bridge needs the pairing code (bridge/src/pairing.ts).
render(<OptionsApp state={state} sharing={sharing} pairing={import.meta.env.FIREFOX} />, document.getElementById('app')!);
void state.start();
