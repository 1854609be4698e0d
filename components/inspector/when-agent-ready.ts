import { effect } from '@preact/signals';
import type { InspectorStore } from './inspector-store';

/** How long the headless runner waits for the agent to be ready (a cloud connection check, a model loading). */
const AGENT_READY_MS = 60_000;

/** Resolves once the chosen agent can run, or says why it cannot (a model to download, a missing key). */
export function whenAgentReady(store: InspectorStore): Promise<{ ok: true } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    let dispose = () => {};
    const timer = setTimeout(
      () => finish({ ok: false, reason: `The agent was not ready within ${AGENT_READY_MS / 1000} s.` }),
      AGENT_READY_MS,
    );
    const finish = (value: { ok: true } | { ok: false; reason: string }) => {
      clearTimeout(timer);
      queueMicrotask(() => dispose());
      resolve(value);
    };
    dispose = effect(() => {
      const status = store.adapter.value?.status;
      if (!status) return;
      if (status.state === 'ready') finish({ ok: true });
      else if (status.state === 'unavailable') finish({ ok: false, reason: status.reason });
      else if (status.state === 'error') finish({ ok: false, reason: status.error });
      else if (status.state === 'needs-download')
        finish({ ok: false, reason: 'The on-device model is not downloaded in this browser profile.' });
    });
  });
}
