import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdapterSummary } from '../../lib/messaging/agent-messages';
import { fakeInspectorStore } from './inspector-store-fake';
import { whenAgentReady } from './when-agent-ready';

const summary = (status: AdapterSummary['status']) => ({ kind: 'cloud', label: 'Cloud', status }) as unknown as AdapterSummary;

describe('whenAgentReady', () => {
  afterEach(() => vi.useRealTimers());

  it('resolves once the chosen agent turns ready', async () => {
    const store = fakeInspectorStore();
    const adapter = store.adapter as unknown as { value: AdapterSummary | undefined };
    const ready = whenAgentReady(store);
    adapter.value = summary({ state: 'loading' } as AdapterSummary['status']);
    adapter.value = summary({ state: 'ready' } as AdapterSummary['status']);
    await expect(ready).resolves.toEqual({ ok: true });
  });

  it('says why it cannot run: unavailable, an error, a model to download', async () => {
    for (const [status, reason] of [
      [{ state: 'unavailable', reason: 'Set an API key in the options.' }, 'Set an API key in the options.'],
      [{ state: 'error', error: 'The provider refused the key.' }, 'The provider refused the key.'],
      [{ state: 'needs-download' }, 'The on-device model is not downloaded in this browser profile.'],
    ] as const) {
      const store = fakeInspectorStore();
      (store.adapter as unknown as { value: AdapterSummary }).value = summary(status as unknown as AdapterSummary['status']);
      await expect(whenAgentReady(store)).resolves.toEqual({ ok: false, reason });
    }
  });

  it('gives up after a minute with the reason', async () => {
    vi.useFakeTimers();
    const ready = whenAgentReady(fakeInspectorStore());
    vi.advanceTimersByTime(60_000);
    await expect(ready).resolves.toEqual({ ok: false, reason: 'The agent was not ready within 60 s.' });
  });
});
