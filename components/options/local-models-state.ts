import { batch, type ReadonlySignal, signal } from '@preact/signals';
import type { OptionsClient } from '../../lib/messaging/options-client';
import type { LocalModelInfo } from '../../lib/messaging/options-messages';
import type { Loadable } from './loadable';
import type { Notice } from './notice';

/** The on-device models as the host lists them, and deleting one (asked twice). */
export interface LocalModelsState {
  localModels: ReadonlySignal<Loadable<LocalModelInfo[]>>;
  /** The model whose Delete waits for a second click. */
  pendingDelete: ReadonlySignal<string | undefined>;
  /** A message about the on-device models (deleted, or why not). */
  localNotice: ReadonlySignal<Notice | undefined>;
  refreshLocalModels(): Promise<void>;
  /** First call asks for confirmation; confirmDelete does it. */
  requestDelete(modelId: string): void;
  cancelDelete(): void;
  confirmDelete(): Promise<void>;
}

/** Creates the on-device model list and its deletion over the client (agent host). */
export function createLocalModelsState(client: Pick<OptionsClient, 'listLocalModels' | 'deleteLocalModel'>): LocalModelsState {
  const localModels = signal<Loadable<LocalModelInfo[]>>({ state: 'idle' });
  const pendingDelete = signal<string | undefined>(undefined);
  const localNotice = signal<Notice | undefined>(undefined);

  const refreshLocalModels = async () => {
    if (localModels.value.state !== 'ready') localModels.value = { state: 'loading' };
    const reply = await client.listLocalModels();
    localModels.value = reply.ok ? { state: 'ready', value: reply.models } : { state: 'error', message: reply.message };
  };

  return {
    localModels,
    pendingDelete,
    localNotice,
    refreshLocalModels,

    requestDelete(modelId) {
      batch(() => {
        pendingDelete.value = modelId;
        localNotice.value = undefined;
      });
    },

    cancelDelete() {
      pendingDelete.value = undefined;
    },

    async confirmDelete() {
      const id = pendingDelete.value;
      if (!id) return;
      const model = localModels.value.state === 'ready' ? localModels.value.value.find((m) => m.id === id) : undefined;
      const name = model?.label ?? id;
      const reply = await client.deleteLocalModel(id);
      batch(() => {
        pendingDelete.value = undefined;
        localNotice.value = reply.ok
          ? { tone: 'success', text: `${name} was deleted from this device.` }
          : { tone: 'error', text: `${name} was not deleted: ${reply.message}` };
      });
      await refreshLocalModels();
    },
  };
}
