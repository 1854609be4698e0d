import { type ReadonlySignal, signal } from '@preact/signals';
import type { OptionsClient } from '../../lib/messaging/options-client';

/** A device test running, or the last one that failed. */
type DeviceTestState = { modelId: string; state: 'testing' } | { modelId: string; state: 'failed'; message: string };

/** "Test this device" for a downloaded model. */
export interface DeviceTestFlow {
  /** "Test this device": the model being tested, or the last test that failed and why. */
  deviceTest: ReadonlySignal<DeviceTestState | undefined>;
  /** Runs "Test this device" for a downloaded model (one at a time); its figures then show with the model. */
  testDevice(modelId: string): Promise<void>;
}

/** Creates "Test this device" over the client; `refreshLocalModels` brings the stored figures back with the list. */
export function createDeviceTestState(client: Pick<OptionsClient, 'testDevice'>, refreshLocalModels: () => Promise<void>): DeviceTestFlow {
  const deviceTest = signal<DeviceTestState | undefined>(undefined);

  return {
    deviceTest,

    async testDevice(modelId) {
      if (deviceTest.value?.state === 'testing') return;
      deviceTest.value = { modelId, state: 'testing' };
      const reply = await client.testDevice(modelId);
      // The figures come back with the model list (kept by the host), so the page shows what is stored.
      if (reply.ok) await refreshLocalModels();
      deviceTest.value = reply.ok ? undefined : { modelId, state: 'failed', message: reply.message };
    },
  };
}
