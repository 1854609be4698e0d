import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFrameDelegation } from './create-frame-delegation';

const TOP = 'https://shop.example';
const ADS = 'https://ads.example';
const child = { tabId: 1, frameId: 3, origin: ADS, url: `${ADS}/` };

afterEach(() => {
  vi.useRealTimers();
});

describe('createFrameDelegation', () => {
  it('the wait for tokens starts once every frame was asked: a slow load of the bridge does not use it up', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    let loaded!: () => void;
    const delegation = createFrameDelegation({
      frames: async () => ({ 0: { origin: TOP, needsDelegation: false }, 3: { origin: ADS, needsDelegation: false } }),
      // The extension's own part of the round: loading the bridge into every frame, slow on a busy machine.
      loadEveryFrame: () =>
        new Promise((resolve) => {
          loaded = () => resolve([0, 3]);
        }),
      askOffers: async (_tabId, frameId) => (frameId === 0 ? [{ token: 'tok', allow: 'tools *', src: `${ADS}/` }] : []),
      waitMs: 3_000,
    });
    const verdict = delegation.decide(1, 3);
    await vi.advanceTimersByTimeAsync(10_000);
    loaded();
    await vi.advanceTimersByTimeAsync(0);
    // The child hands its token back within the wait, counted from when its parent was asked.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(delegation.present(child, 'tok')).toBe(true);
    expect(await verdict).toBe(true);
  });

  it('no token within the wait is no answer yet (undefined), and a token that matches no offer teaches nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const delegation = createFrameDelegation({
      frames: async () => ({ 0: { origin: TOP, needsDelegation: false }, 3: { origin: ADS, needsDelegation: false } }),
      loadEveryFrame: async () => [0, 3],
      askOffers: async () => [],
      waitMs: 3_000,
    });
    const verdict = delegation.decide(1, 3);
    await vi.advanceTimersByTimeAsync(3_001);
    expect(await verdict).toBeUndefined();
    expect(delegation.present(child, 'never-offered')).toBe(false);
    expect(delegation.present(child, 42)).toBe(false);
  });
});
