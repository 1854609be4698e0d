/**
 * tools/list: the tools of the tabs that show a shared site (or are shared themselves), named `<origin>__<tool>` after
 * the frame that owns each (lib/agent/site-tool-names.ts). Only the tools of the page the router knows the tab shows, never a
 * delegate_to_* tool (sub-agents are the extension's own).
 */
import { isDebuggingTool } from '../agent/is-debugging-tool';
import { isDelegateToolName } from '../agent/select-tools';
import type { BridgeBrowser } from '../messaging/mcp-bridge-messages';
import type { RouterClient } from '../messaging/router-client';
import { cleanPageText } from '../page-data/clean-page-text';
import { webOriginOf } from '../shared/web-origin-of';
import type { NamedTool, ToolNames } from '../agent/site-tool-names';
import { frameOriginOf, type SharedTool } from './shared-tool';
import type { SharingChoices } from './sharing-choices';

interface ListSharedToolsDeps {
  choices: Pick<SharingChoices, 'load' | 'enabled' | 'isShared' | 'keepShowingTabs'>;
  browser: Pick<BridgeBrowser, 'tabs'>;
  tools: Pick<RouterClient, 'getTools'>;
  names: Pick<ToolNames, 'nameOf'>;
}

/** The shared tools now, by name. Tabs that left their shared site lose a tab share on the way. */
export async function listSharedTools(deps: ListSharedToolsDeps): Promise<Map<string, SharedTool>> {
  const { choices } = deps;
  const shared = new Map<string, SharedTool>();
  await choices.load();
  if (!choices.enabled()) return shared;
  const tabs = await deps.browser.tabs().catch(() => []);
  choices.keepShowingTabs(new Map(tabs.map((t) => [t.tabId, t])));
  for (const tab of tabs) {
    const tabSite = webOriginOf(tab.url);
    if (!tabSite || !choices.isShared(tab.tabId, tabSite)) continue;
    const snapshot = await deps.tools.getTools(tab.tabId).catch(() => undefined);
    if (!snapshot) continue;
    // The tools are the page's the router knows: when it knows another site's page (mid-navigation), none.
    const pageSite = webOriginOf(snapshot.page?.url) ?? tabSite;
    if (pageSite !== tabSite) continue;
    const title = cleanPageText(snapshot.page?.title ?? tab.title ?? '', { oneLine: true, max: 80 });
    for (const entry of snapshot.tools) {
      // A debugging tool is the page's developers', never a desktop agent's (docs/security.md, "Debugging tools").
      if (isDelegateToolName(entry.name) || isDebuggingTool(entry)) continue;
      // A frame of another origin is named and described as what it is, never as the site around it.
      const origin = frameOriginOf(entry);
      const named: NamedTool = { tabId: tab.tabId, site: tabSite, tool: entry.name, ...(origin !== tabSite ? { origin } : {}) };
      shared.set(deps.names.nameOf(named), { ...named, entry, ...(title ? { title } : {}) });
    }
  }
  return shared;
}
