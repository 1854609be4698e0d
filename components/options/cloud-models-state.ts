import { type ReadonlySignal, signal } from '@preact/signals';
import type { OptionsClient } from '../../lib/messaging/options-client';
import type { CloudModelInfo } from '../../lib/messaging/options-messages';
import type { Settings } from '../../lib/storage/settings';
import type { Loadable } from './loadable';

/** The cloud provider's models, as the host lists them for the saved settings. */
export interface CloudModelsState {
  cloudModels: ReadonlySignal<Loadable<CloudModelInfo[]>>;
  refreshCloudModels(): Promise<void>;
}

/** Creates the cloud model list over the client; it is asked for only when the saved settings allow a listing. */
export function createCloudModelsState(
  client: Pick<OptionsClient, 'listCloudModels'>,
  settings: ReadonlySignal<Settings | undefined>,
): CloudModelsState {
  const cloudModels = signal<Loadable<CloudModelInfo[]>>({ state: 'idle' });

  /** Whether the saved cloud settings let the host ask for a model list. */
  const canListCloudModels = (s: Settings) =>
    s.cloud.provider === 'openai-compatible' ? !!s.cloud.baseURL : s.apiKeys[s.cloud.provider].saved;

  const refreshCloudModels = async () => {
    const s = settings.value;
    if (!s || !canListCloudModels(s)) {
      cloudModels.value = { state: 'idle' };
      return;
    }
    cloudModels.value = { state: 'loading' };
    const reply = await client.listCloudModels();
    cloudModels.value = reply.ok ? { state: 'ready', value: reply.models } : { state: 'error', message: reply.message };
  };

  return { cloudModels, refreshCloudModels };
}
