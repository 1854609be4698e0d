import { describe, expect, it } from 'vitest';
import type { AdapterSummary } from '../../lib/messaging/agent-messages';
import { createAdapterSlice } from './create-adapter-slice';
import { fakeAgentClient } from './fake-agent-client';

const adapters: AdapterSummary[] = [
  { kind: 'local', label: 'On-device', status: { state: 'ready' }, models: [] },
  { kind: 'cloud', label: 'Cloud', status: { state: 'loading' }, models: [] },
];

describe('createAdapterSlice', () => {
  it('shows the host’s adapters and the chosen one', () => {
    const client = fakeAgentClient();
    const slice = createAdapterSlice(client);
    expect(slice.adapter.value).toBeUndefined();
    slice.receive({ type: 'panel/adapters', adapters, chosen: 'cloud' });
    expect(slice.adapters.value).toBe(adapters);
    expect(slice.adapter.value?.label).toBe('Cloud');
  });

  it('shows a choice at once and tells the host; model intents need a chosen adapter', () => {
    const client = fakeAgentClient();
    const slice = createAdapterSlice(client);
    slice.chooseModel('m');
    slice.prepare();
    slice.cancelPrepare();
    expect(client.sent).toEqual([]);
    slice.receive({ type: 'panel/adapters', adapters, chosen: 'cloud' });
    slice.chooseAdapter('local');
    expect(slice.chosen.value).toBe('local');
    slice.chooseModel('m');
    slice.prepare();
    slice.cancelPrepare();
    expect(client.sent).toEqual([
      { type: 'panel/choose-adapter', adapter: 'local' },
      { type: 'panel/choose-model', adapter: 'local', modelId: 'm' },
      { type: 'panel/prepare', adapter: 'local' },
      { type: 'panel/cancel-prepare', adapter: 'local' },
    ]);
  });
});
