import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FrameSender } from './attest-frame-sender';
import { createContinuations } from './create-continuations';

const sender = (extra: Partial<FrameSender> = {}): FrameSender => ({
  tabId: 1,
  frameId: 0,
  origin: 'https://shop.test',
  url: 'https://shop.test/cart',
  documentId: 'doc-1',
  ...extra,
});
const output = { content: [{ type: 'text' as const, text: 'paid' }] };
const always = () => true;

describe('createContinuations', () => {
  afterEach(() => vi.useRealTimers());

  it('mints one random token per running call, only for the frame that runs it', () => {
    let n = 0;
    const book = createContinuations(() => `token-${++n}`);
    expect(book.mint('call-1', sender(), () => false)).toBeUndefined();
    expect(book.has('call-1')).toBe(false);
    expect(book.mint('call-1', sender(), always)).toBe('token-1');
    expect(book.mint('call-1', sender(), always)).toBe('token-1');
    // Another frame cannot get the token of a call it does not run, even if asked as if it did.
    expect(book.mint('call-1', sender({ frameId: 3 }), always)).toBeUndefined();
    expect(book.has('call-1')).toBe(true);
  });

  it('the next document of the same tab, frame and origin resumes the call once; its result ends the wait', async () => {
    const book = createContinuations(() => 'token');
    book.mint('call-1', sender(), always);
    const waited = book.wait('call-1', 5_000);
    const next = sender({ documentId: 'doc-2', url: 'https://shop.test/done' });
    expect(book.claim('token', next)).toBe(true);
    expect(book.claim('token', next)).toBe(false);
    expect(book.deliver('token', next, output)).toBe(true);
    expect(await waited).toEqual({ output, url: 'https://shop.test/done' });
    expect(book.deliver('token', next, output)).toBe(false);
  });

  it('a result delivered before the router waits is kept for its wait', async () => {
    const book = createContinuations(() => 'token');
    book.mint('call-1', sender(), always);
    const next = sender({ documentId: 'doc-2', url: 'https://shop.test/done' });
    expect(book.claim('token', next)).toBe(true);
    expect(book.deliver('token', next, output)).toBe(true);
    expect(await book.wait('call-1', 5_000)).toEqual({ output, url: 'https://shop.test/done' });
  });

  it('refuses another origin in the same frame, another tab, another frame, and a guessed token', () => {
    const book = createContinuations(() => 'token');
    book.mint('call-1', sender(), always);
    expect(book.claim('token', sender({ origin: 'https://evil.test', url: 'https://evil.test/' }))).toBe(false);
    expect(book.claim('token', sender({ tabId: 2 }))).toBe(false);
    expect(book.claim('token', sender({ frameId: 7 }))).toBe(false);
    expect(book.claim('guess', sender())).toBe(false);
    expect(book.claim(undefined as unknown as string, sender())).toBe(false);
    // None of those used it up: the rightful next document still can.
    expect(book.claim('token', sender({ documentId: 'doc-2' }))).toBe(true);
  });

  it('only the document that claimed a token delivers its result', () => {
    const book = createContinuations(() => 'token');
    book.mint('call-1', sender(), always);
    expect(book.deliver('token', sender({ documentId: 'doc-2' }), output)).toBe(false);
    expect(book.claim('token', sender({ documentId: 'doc-2' }))).toBe(true);
    expect(book.deliver('token', sender({ documentId: 'doc-3' }), output)).toBe(false);
    expect(book.deliver('token', sender({ frameId: 1, documentId: 'doc-2' }), output)).toBe(false);
  });

  it('a token dies with its call, its tab, or when its wait runs out (restarted by a claim)', async () => {
    vi.useFakeTimers();
    const book = createContinuations(() => `t-${Math.random()}`);
    const ended = book.mint('call-1', sender(), always)!;
    book.end('call-1');
    expect(book.claim(ended, sender())).toBe(false);
    const closed = book.mint('call-2', sender(), always)!;
    book.forgetTab(1);
    expect(book.claim(closed, sender())).toBe(false);

    const late = book.mint('call-3', sender(), always)!;
    const waited = book.wait('call-3', 1_000);
    vi.advanceTimersByTime(999);
    expect(book.claim(late, sender({ documentId: 'doc-2' }))).toBe(true);
    vi.advanceTimersByTime(999);
    expect(book.deliver(late, sender({ documentId: 'doc-2' }), output)).toBe(true);
    await expect(waited).resolves.toEqual({ output, url: 'https://shop.test/cart' });

    const expired = book.mint('call-4', sender(), always)!;
    const unanswered = book.wait('call-4', 1_000);
    vi.advanceTimersByTime(1_000);
    await expect(unanswered).resolves.toBeUndefined();
    expect(book.claim(expired, sender())).toBe(false);
  });

  it('a call that ends while a claimed callback runs says where, so it can be stopped; the callback’s result is refused after', async () => {
    vi.useFakeTimers();
    let n = 0;
    const book = createContinuations(() => `token-${++n}`);
    const next = sender({ documentId: 'doc-2', url: 'https://shop.test/done#token-1' });
    // Stopped while the callback runs.
    book.mint('call-1', sender(), always);
    void book.wait('call-1', 5_000);
    expect(book.claim('token-1', next)).toBe(true);
    expect(book.end('call-1')).toEqual({ token: 'token-1', tabId: 1, frameId: 0, documentId: 'doc-2' });
    expect(book.deliver('token-1', next, output)).toBe(false);

    // Over its time limit while the callback runs: nothing is taken from then on, and the end says where it runs.
    book.mint('call-2', sender(), always);
    const waited = book.wait('call-2', 1_000);
    expect(book.claim('token-2', next)).toBe(true);
    vi.advanceTimersByTime(1_000);
    await expect(waited).resolves.toBeUndefined();
    expect(book.deliver('token-2', next, output)).toBe(false);
    expect(book.end('call-2')).toEqual({ token: 'token-2', tabId: 1, frameId: 0, documentId: 'doc-2' });

    // No callback runs: never claimed, or its result came.
    book.mint('call-3', sender(), always);
    expect(book.end('call-3')).toBeUndefined();
    book.mint('call-4', sender(), always);
    const answered = book.wait('call-4', 5_000);
    book.claim('token-4', next);
    book.deliver('token-4', next, output);
    await answered;
    expect(book.end('call-4')).toBeUndefined();
  });
});
