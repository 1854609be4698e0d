/**
 * A desktop agent's question waits on a tab that no panel shows: the notification says so, and clicking it must
 * lead the person to where they can answer (docs/security.md § 7).
 *
 * Both browsers open their panel only inside the handler of a user action, and only before its first `await`:
 * - Chromium 156 counts a notification click as one (`sidePanel.open` resolves when called at once in
 *   `notifications.onClicked`, and refuses "may only be called in response to a user gesture" after an `await`);
 * - firefox-esr 153 does not (`sidebarAction.open` refuses "may only be called from a user input handler" there).
 * Both checked with a real click (tests/fixtures/desktop-notifications.ts). So the panel is asked for first; then
 * the tab comes to the front; and where no panel opened and none is open in its window (an open one follows its
 * window's active tab, so it now shows this one), the panel's page opens in a tab of its own, pinned to that tab.
 */

/** What opening a waiting question uses of the browser. */
export interface WaitingQuestionBrowser {
  /** Opens the extension's panel for the tab (Chrome: sidePanel.open({tabId}); Firefox: sidebarAction.open()). */
  openPanel(tabId: number): Promise<void>;
  /** Makes the tab active and focuses its window: where it is, or undefined when the tab is gone. */
  showTab(tabId: number): Promise<{ windowId: number; index: number } | undefined>;
  /** Whether the panel is open in that window now. */
  panelOpenIn(windowId: number): Promise<boolean>;
  /** Opens the panel's page pinned to the tab (sidepanel.html?tab=<id>) in a new active tab beside it. */
  openPanelPage(tabId: number, beside: { windowId: number; index: number }): Promise<void>;
}

/** Where the person can answer now: the panel, the panel's page in a tab, or nowhere because the tab closed. */
type WaitingQuestionPlace = 'panel' | 'panel-page' | 'tab-gone';

/**
 * Leads the person to the question waiting on `tabId`. Call it synchronously from the click's handler: the panel is
 * asked for before anything is awaited, while the browser still counts the click.
 */
export function openWaitingQuestion(tabId: number, browser: WaitingQuestionBrowser): Promise<WaitingQuestionPlace> {
  let opening: Promise<boolean>;
  try {
    opening = browser.openPanel(tabId).then(
      () => true,
      () => false,
    );
  } catch {
    opening = Promise.resolve(false);
  }
  return (async () => {
    const where = await browser.showTab(tabId).catch(() => undefined);
    const opened = await opening;
    if (!where) return 'tab-gone';
    if (opened || (await browser.panelOpenIn(where.windowId).catch(() => false))) return 'panel';
    await browser.openPanelPage(tabId, where);
    return 'panel-page';
  })();
}

/**
 * The notification's text after the question: how to answer, in words true in both browsers (a click leads to
 * the panel or its page; the toolbar button opens the panel on the tab it is clicked on). `tabTitle` is the tab's
 * title, already cleaned page text, or empty.
 */
export function howToAnswer(tabTitle: string): string {
  const tab = tabTitle ? `the tab “${tabTitle}”` : 'that tab';
  return `Click here to answer, or open WebMCP Agent’s panel (its toolbar button) on ${tab}.`;
}
