// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { watchNativeAfterCommit } from './watch-native-after-commit';

type Win = Window & typeof globalThis;

/** A native modelContext stand-in that counts reads, with the tools getTools answers. */
function nativeOn(win: Window, tools: { window?: unknown }[]) {
  const native = Object.assign(new EventTarget(), { getTools: async () => tools });
  let reads = 0;
  Object.defineProperty(win.document, 'modelContext', {
    configurable: true,
    get: () => {
      reads++;
      return native;
    },
  });
  return { native, reads: () => reads };
}

/** An extension API whose acknowledgement the test releases. */
function acknowledger() {
  let release = () => {};
  const answered = new Promise<string[]>((resolve) => (release = () => resolve(['en'])));
  return { api: { i18n: { getAcceptLanguages: () => answered } }, release: () => release() };
}

describe('watchNativeAfterCommit', () => {
  it('reads document.modelContext only once the browser answered, then watches its toolchange', async () => {
    const { native, reads } = nativeOn(window, []);
    const { api, release } = acknowledger();
    let found = 0;
    const watching = watchNativeAfterCommit(window as Win, api, () => found++);
    await Promise.resolve();
    expect(reads()).toBe(0);
    release();
    await watching;
    expect(reads()).toBe(1);
    expect(found).toBe(0);
    native.dispatchEvent(new Event('toolchange'));
    native.dispatchEvent(new Event('toolchange'));
    expect(found).toBe(1);
  });

  it('counts a tool this window registered before it watched, and not another window’s', async () => {
    const { api, release } = acknowledger();
    release();
    nativeOn(window, [{ window: {} }]);
    let found = 0;
    await watchNativeAfterCommit(window as Win, api, () => found++);
    expect(found).toBe(0);
    nativeOn(window, [{ window: {} }, { window }]);
    await watchNativeAfterCommit(window as Win, api, () => found++);
    expect(found).toBe(1);
  });

  it('watches even when the acknowledgement fails, and does nothing without a native modelContext', async () => {
    const failing = { i18n: { getAcceptLanguages: () => Promise.reject(new Error('gone')) } };
    const { native } = nativeOn(window, []);
    let found = 0;
    await watchNativeAfterCommit(window as Win, failing, () => found++);
    native.dispatchEvent(new Event('toolchange'));
    expect(found).toBe(1);
    Object.defineProperty(window.document, 'modelContext', { configurable: true, value: undefined });
    await expect(watchNativeAfterCommit(window as Win, failing, () => found++)).resolves.toBeUndefined();
  });
});
