import { computed, type ReadonlySignal, signal } from '@preact/signals';
import type { AgentClient } from '../../lib/messaging/agent-client';
import type { AdapterSummary, AgentKind, HostEvent } from '../../lib/messaging/agent-messages';

/** The agents the host offers, the one the person chose, and what the person may do about them. */
export interface AdapterSlice {
  adapters: ReadonlySignal<AdapterSummary[]>;
  chosen: ReadonlySignal<AgentKind | undefined>;
  /** The chosen adapter's summary. */
  adapter: ReadonlySignal<AdapterSummary | undefined>;
  chooseAdapter(kind: AgentKind): void;
  chooseModel(modelId: string): void;
  prepare(): void;
  cancelPrepare(): void;
}

/** Creates the adapter slice; `receive` takes the host's adapters events. */
export function createAdapterSlice(client: AgentClient): AdapterSlice & { receive(event: HostEvent): void } {
  const adapters = signal<AdapterSummary[]>([]);
  const chosen = signal<AgentKind | undefined>(undefined);
  const adapter = computed(() => adapters.value.find((a) => a.kind === chosen.value));
  return {
    adapters,
    chosen,
    adapter,
    receive(event) {
      if (event.type !== 'panel/adapters') return;
      adapters.value = event.adapters;
      chosen.value = event.chosen;
    },
    chooseAdapter(kind) {
      // Shown at once; the host's next adapters event confirms it.
      chosen.value = kind;
      client.send({ type: 'panel/choose-adapter', adapter: kind });
    },
    chooseModel(modelId) {
      if (chosen.value) client.send({ type: 'panel/choose-model', adapter: chosen.value, modelId });
    },
    prepare() {
      if (chosen.value) client.send({ type: 'panel/prepare', adapter: chosen.value });
    },
    cancelPrepare() {
      if (chosen.value) client.send({ type: 'panel/cancel-prepare', adapter: chosen.value });
    },
  };
}
