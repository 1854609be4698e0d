import { describe, expect, it } from 'vitest';
import { howToAnswer, openWaitingQuestion, type WaitingQuestionBrowser } from './open-waiting-question';

/** A browser whose panel opens (Chrome, the click counted) or refuses (Firefox), recording the order of calls. */
function fakeBrowser(options: { panelOpens: boolean; panelOpen?: boolean; tabGone?: boolean }) {
  const calls: string[] = [];
  const browser: WaitingQuestionBrowser = {
    openPanel: (tabId) => {
      calls.push(`openPanel ${tabId}`);
      return options.panelOpens ? Promise.resolve() : Promise.reject(new Error('may only be called from a user input handler'));
    },
    showTab: async (tabId) => {
      calls.push(`showTab ${tabId}`);
      return options.tabGone ? undefined : { windowId: 2, index: 3 };
    },
    panelOpenIn: async (windowId) => {
      calls.push(`panelOpenIn ${windowId}`);
      return options.panelOpen === true;
    },
    openPanelPage: async (tabId, beside) => {
      calls.push(`openPanelPage ${tabId} ${beside.windowId}:${beside.index}`);
    },
  };
  return { browser, calls };
}

describe('openWaitingQuestion', () => {
  it('asks for the panel before anything is awaited (the click counts only until then), then brings the tab forward', async () => {
    const t = fakeBrowser({ panelOpens: true });
    const done = openWaitingQuestion(7, t.browser);
    // Synchronously, before the first await: the browser still counts the click here.
    expect(t.calls).toEqual(['openPanel 7', 'showTab 7']);
    expect(await done).toBe('panel');
    expect(t.calls).toEqual(['openPanel 7', 'showTab 7']);
  });

  it('where the browser refuses to open the panel and none is open, opens the panel’s page pinned to the tab beside it', async () => {
    const t = fakeBrowser({ panelOpens: false });
    expect(await openWaitingQuestion(7, t.browser)).toBe('panel-page');
    expect(t.calls).toEqual(['openPanel 7', 'showTab 7', 'panelOpenIn 2', 'openPanelPage 7 2:3']);
  });

  it('where a panel is open in the tab’s window already, the tab in front is enough (the panel follows it)', async () => {
    const t = fakeBrowser({ panelOpens: false, panelOpen: true });
    expect(await openWaitingQuestion(7, t.browser)).toBe('panel');
    expect(t.calls).not.toContain('openPanelPage 7 2:3');
  });

  it('opens nothing for a tab that closed, and survives a panel API that throws', async () => {
    const t = fakeBrowser({ panelOpens: false, tabGone: true });
    expect(await openWaitingQuestion(7, t.browser)).toBe('tab-gone');
    expect(t.calls).toEqual(['openPanel 7', 'showTab 7']);
    const throwing = fakeBrowser({ panelOpens: false });
    throwing.browser.openPanel = () => {
      throw new TypeError('sidebarAction is undefined');
    };
    expect(await openWaitingQuestion(7, throwing.browser)).toBe('panel-page');
  });
});

describe('howToAnswer', () => {
  it('says exactly how, naming the tab', () => {
    expect(howToAnswer('Stoneware Mug – Shop')).toBe(
      'Click here to answer, or open WebMCP Agent’s panel (its toolbar button) on the tab “Stoneware Mug – Shop”.',
    );
    expect(howToAnswer('')).toBe('Click here to answer, or open WebMCP Agent’s panel (its toolbar button) on that tab.');
  });
});
