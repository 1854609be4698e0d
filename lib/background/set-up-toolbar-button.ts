/** The toolbar button opens the panel: Chrome's side panel by its own behaviour, Firefox's sidebar by toggling it. */

/** The slice of the browser this needs (each browser has one of the two panels). */
interface ToolbarButtonBrowser {
  action: { onClicked: { addListener(listener: () => void): void } };
  sidePanel?: { setPanelBehavior(behavior: { openPanelOnActionClick: boolean }): Promise<void> };
  sidebarAction?: { toggle(): Promise<void> };
}

/** Makes the toolbar button open the panel. */
export function setUpToolbarButton(browser: ToolbarButtonBrowser, options: { firefox: boolean }): void {
  if (options.firefox) browser.action.onClicked.addListener(() => void browser.sidebarAction?.toggle());
  else void browser.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true });
}
