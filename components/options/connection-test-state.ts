import { type ReadonlySignal, type Signal, signal } from '@preact/signals';
import type { OptionsClient } from '../../lib/messaging/options-client';

/** Test connection: running, or its last result. */
type ConnectionState = { state: 'idle' } | { state: 'testing' } | { state: 'done'; ok: boolean; message: string };

/** "Test connection" for the saved cloud settings. */
export interface ConnectionTestState {
  /** Test connection: running, or its last result. */
  connection: ReadonlySignal<ConnectionState>;
  /** Saves unsaved changes first, then asks the host to make one cheap request. */
  testConnection(): Promise<void>;
}

/**
 * Creates "Test connection" over the client; unsaved changes (`dirty`) are saved first with the form's `save`. The
 * form gets `connection` writable, to set it back to idle when a field the test depends on changes.
 */
export function createConnectionTestState(
  client: Pick<OptionsClient, 'testConnection'>,
  form: { dirty: ReadonlySignal<boolean>; save: () => Promise<boolean> },
): ConnectionTestState & { connection: Signal<ConnectionState> } {
  const { dirty, save } = form;
  const connection = signal<ConnectionState>({ state: 'idle' });

  return {
    connection,

    async testConnection() {
      if (connection.value.state === 'testing') return;
      if (dirty.value && !(await save())) {
        connection.value = { state: 'done', ok: false, message: 'Not tested: fix the fields marked above, then try again.' };
        return;
      }
      connection.value = { state: 'testing' };
      const reply = await client.testConnection();
      connection.value = { state: 'done', ok: reply.ok, message: reply.message };
    },
  };
}
