import { describe, expect, it } from 'vitest';
import { report, type ScriptedFrameMessage, settle, setup as setupRouter, tool, until } from '../testing/tool-router-fixtures';

/** A router whose browser says, for each tab, whether its page crashed (tabs.get's `unloaded`). */
function setup(answer: (message: ScriptedFrameMessage) => Promise<unknown> = async () => undefined) {
  const crashed = new Set<number>();
  const { router, hostMessages } = setupRouter((message) => answer(message), undefined, {
    goneEvidenceMs: 50,
    tabCrashed: async (tabId) => crashed.has(tabId),
  });
  /** A watched tab showing shop.test with one tool, in document `doc-1`. */
  const open = async (tabId: number) => {
    await router.getTools(tabId);
    const sender = { tabId, frameId: 0, documentId: 'doc-1', url: 'http://shop.test/' };
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://shop.test/' }, sender);
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://shop.test', [tool('add_to_cart')]) }, sender);
    await until(async () => expect((await router.getTools(tabId)).tools).toHaveLength(1));
  };
  return { router, crashed, hostMessages, open };
}

describe('createToolRouter: a tab whose renderer crashed', () => {
  it('offers nothing and says it crashed once its top document’s Port closes and the browser shows no page, and tells the host', async () => {
    const { router, crashed, hostMessages, open } = setup();
    await open(1);
    crashed.add(1);
    await router.topDocumentLeft(1, 'doc-1');
    const snapshot = await router.getTools(1);
    expect(snapshot).toMatchObject({ tools: [], page: {}, crashed: true });
    await until(async () =>
      expect(hostMessages.at(-1)).toMatchObject({ type: 'host/tools-changed', tabId: 1, snapshot: { crashed: true, tools: [] } }),
    );
  });

  it('does not count a reload, a navigation or the back/forward cache as a crash: the browser shows the tab loading', async () => {
    const { router, open } = setup();
    await open(2);
    await router.topDocumentLeft(2, 'doc-1');
    const snapshot = await router.getTools(2);
    expect(snapshot.crashed).toBeUndefined();
    expect(snapshot.tools.map((t) => t.name)).toEqual(['add_to_cart']);
  });

  it('ignores an old document’s Port once a newer top document has announced itself', async () => {
    const { router, crashed, open } = setup();
    await open(3);
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://shop.test/next' }, { tabId: 3, frameId: 0, documentId: 'doc-2' });
    await settle();
    crashed.add(3);
    await router.topDocumentLeft(3, 'doc-1');
    expect((await router.getTools(3)).crashed).toBeUndefined();
  });

  it('is a page again once a new top document starts (the person reloaded the crashed tab)', async () => {
    const { router, crashed, open } = setup();
    await open(4);
    crashed.add(4);
    await router.topDocumentLeft(4, 'doc-1');
    expect((await router.getTools(4)).crashed).toBe(true);
    crashed.delete(4);
    await router.tabNavigating(4);
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://shop.test/' }, { tabId: 4, frameId: 0, documentId: 'doc-3' });
    await until(async () => expect((await router.getTools(4)).crashed).toBeUndefined());
  });

  it('a call in flight when the page crashes ends as frame_gone, and the tab then says it crashed', async () => {
    const { router, crashed, open } = setup(async (message) => {
      if (message.type !== 'bridge/call') return undefined;
      // The renderer dies: the browser closes the message channel before any answer.
      crashed.add(5);
      throw new Error('A listener indicated an asynchronous response by returning true, but the message channel closed');
    });
    await open(5);
    const output = await router.callTool(5, { id: 'c1', name: 'add_to_cart', input: {} });
    expect(output.isError).toBe(true);
    expect(JSON.stringify(output.content)).toContain('frame_gone');
    expect((await router.getTools(5)).crashed).toBe(true);
  });
});
