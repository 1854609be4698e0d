import { describe, expect, it } from 'vitest';
import { createFrameDocuments } from './create-frame-documents';

const frame = (tabId: number, frameId: number, documentId?: string) => ({
  tabId,
  frameId,
  origin: 'http://a.test',
  url: 'http://a.test/',
  ...(documentId ? { documentId } : {}),
});

describe('createFrameDocuments', () => {
  it('knows the document each frame announced last, and when it asked for its bridge', () => {
    let now = 100;
    const documents = createFrameDocuments(() => now);
    documents.loadAsked(frame(1, 0, 'A'));
    now = 200;
    expect(documents.started(frame(1, 0, 'A'))).toBe(100);
    expect(documents.started(frame(1, 0, 'A'))).toBeUndefined();
    expect(documents.replaced(frame(1, 0, 'A'))).toBe(false);
    documents.started(frame(1, 0, 'B'));
    expect(documents.replaced(frame(1, 0, 'A'))).toBe(true);
    // Where the browser names no documents (Firefox), nothing counts as replaced.
    expect(documents.replaced(frame(1, 0))).toBe(false);
    documents.forgetTab(1);
    expect(documents.replaced(frame(1, 0, 'A'))).toBe(false);
  });

  it('a document whose bridge announced it before it asked gets the time back if a check decides its policy, and nothing is kept', () => {
    let now = 100;
    const documents = createFrameDocuments(() => now);
    documents.started(frame(1, 2, 'A'), true);
    now = 150;
    expect(documents.loadAsked(frame(1, 2, 'A'))).toBe(150);
    expect(documents.started(frame(1, 2, 'A'), true)).toBeUndefined();
    // One of the top's origin and ancestry is allowed at once and hears of changes as they come: nothing owed.
    documents.started(frame(1, 4, 'D'), false);
    expect(documents.loadAsked(frame(1, 4, 'D'))).toBeUndefined();
    expect(documents.started(frame(1, 4, 'D'))).toBeUndefined();
    // The frame's next document asks before its bridge announces it: kept, as before.
    now = 200;
    expect(documents.loadAsked(frame(1, 2, 'B'))).toBeUndefined();
    expect(documents.started(frame(1, 2, 'B'))).toBe(200);
    // Where the browser names no documents (Firefox), a frame's earlier document cannot stand for this one.
    documents.started(frame(1, 3), true);
    expect(documents.loadAsked(frame(1, 3))).toBeUndefined();
  });

  it('a tab whose top document went crashed only if the browser says so and no newer top document started', async () => {
    const documents = createFrameDocuments();
    const crashedTabs: number[] = [];
    const check = (tabId: number, documentId: string | undefined, crashed: () => Promise<boolean>) =>
      documents.checkCrashed(tabId, documentId, crashed, async () => void crashedTabs.push(tabId));
    documents.started(frame(1, 0, 'A'));
    await check(1, 'A', async () => false);
    expect(crashedTabs).toEqual([]);
    await check(1, 'A', async () => {
      throw new Error('no such tab');
    });
    expect(crashedTabs).toEqual([]);
    // An older document's Port closing says nothing of the page now.
    documents.started(frame(1, 0, 'B'));
    await check(1, 'A', async () => true);
    expect(crashedTabs).toEqual([]);
    // A new top document that starts while the browser is asked is a page again.
    await check(1, 'B', async () => {
      documents.started(frame(1, 0, 'C'));
      return true;
    });
    expect(crashedTabs).toEqual([]);
    await check(1, 'C', async () => true);
    expect(crashedTabs).toEqual([1]);
  });
});
