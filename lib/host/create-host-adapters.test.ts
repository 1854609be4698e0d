import { describe, expect, it } from 'vitest';
import type { AgentAdapter } from '../agent/types';
import type { HostEvent } from '../messaging/agent-messages';
import { createSettingsStore } from '../storage/settings-store';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import type { HostPort } from './agent-host-deps';
import { createAdapterRegistry } from './create-adapter-registry';
import { createHostAdapters, MISSING_ADAPTER } from './create-host-adapters';

/** An on-device adapter whose download waits until the test ends it, and records the signal it got. */
function downloadingAdapter() {
  let finish: ((error?: Error) => void) | undefined;
  const signals: AbortSignal[] = [];
  const adapter: AgentAdapter = {
    id: 'local-test',
    label: 'On-device',
    async *run() {},
    prepare: (given) =>
      new Promise<void>((resolve, reject) => {
        const signal = given as AbortSignal;
        signals.push(signal);
        signal.addEventListener('abort', () => reject(signal.reason));
        finish = (error) => (error ? reject(error) : resolve());
      }),
  };
  return { adapter, signals, finish: (error?: Error) => finish?.(error) };
}

const PORT = { name: 'panel' } as HostPort;

function setup(adapter: AgentAdapter) {
  const settings = createSettingsStore({ local: createMemoryStorageArea() });
  const adapters = createAdapterRegistry([{ kind: 'local', create: () => adapter }]);
  const events: HostEvent[] = [];
  const notices: string[] = [];
  const host = createHostAdapters(
    { settings, adapters },
    (event) => events.push(event),
    (_port, message) => notices.push(message),
  );
  return { host, settings, events, notices };
}

const until = async (read: () => boolean) => {
  while (!read()) await new Promise((r) => setTimeout(r, 5));
};

describe('createHostAdapters', () => {
  it('summarises every kind, a kind the build lacks as unavailable with the reason', async () => {
    const { host } = setup(downloadingAdapter().adapter);
    const { chosen, adapters } = await host.summaries();
    expect(chosen).toBe('local');
    expect(adapters.map((a) => [a.kind, a.status.state])).toEqual([
      ['local', 'ready'],
      ['cloud', 'unavailable'],
    ]);
    expect(adapters[1].status).toEqual({ state: 'unavailable', reason: MISSING_ADAPTER('cloud') });
  });

  it('the chosen adapter, or why none can run', async () => {
    const { host, settings } = setup(downloadingAdapter().adapter);
    expect(await host.chosen()).toMatchObject({ id: 'local-test' });
    await settings.setMode('cloud');
    expect(await host.chosen()).toEqual({ unavailable: 'Cloud mode is not available in this build.' });
  });

  it('a download the person cancels ends without a notice; one that fails says why; both tell the panels', async () => {
    const download = downloadingAdapter();
    const { host, events, notices } = setup(download.adapter);
    const first = host.handlers['panel/prepare']({ type: 'panel/prepare', adapter: 'local' }, PORT);
    await until(() => download.signals.length === 1);
    // A second click while it runs starts nothing.
    await host.handlers['panel/prepare']({ type: 'panel/prepare', adapter: 'local' }, PORT);
    expect(download.signals).toHaveLength(1);
    host.handlers['panel/cancel-prepare']({ type: 'panel/cancel-prepare', adapter: 'local' }, PORT);
    await first;
    expect(download.signals[0].aborted).toBe(true);
    expect(notices).toEqual([]);

    const second = host.handlers['panel/prepare']({ type: 'panel/prepare', adapter: 'local' }, PORT);
    await until(() => download.signals.length === 2);
    download.finish(new Error('disk full'));
    await second;
    expect(notices).toEqual(['The download failed: disk full']);
    await until(() => events.some((e) => e.type === 'panel/adapters'));
  });

  it('says so when the adapter has no other models', async () => {
    const { host, notices } = setup(downloadingAdapter().adapter);
    await host.handlers['panel/choose-model']({ type: 'panel/choose-model', adapter: 'local', modelId: 'x' }, PORT);
    expect(notices).toEqual(['This agent has no other models.']);
  });
});
