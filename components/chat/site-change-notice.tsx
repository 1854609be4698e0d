import { hostOf } from '../../lib/shared/host-of';
import { originLabel } from '../../lib/shared/origin-label';
import { webOriginOf } from '../../lib/shared/web-origin-of';

interface SiteChangeNoticeProps {
  /** The origins whose data the conversation holds (TabSnapshot.sites): its runs' sites and its tools' frames. */
  sites: readonly string[] | undefined;
  /** The URL of the page the tab shows now. */
  pageUrl: string | undefined;
  /**
   * The origins of a task's other tabs (other-tab-origins.ts): their data is the task's, asked about at each
   * crossing, and alone it does not mean the tab changed site.
   */
  otherTabs?: readonly string[];
  onNewChat: () => void;
}

/**
 * Says so when the conversation holds what was read on another origin than the site the tab shows now (another
 * site it was on, or a frame of another site inside this one; docs/security.md, "A conversation belongs to its
 * site"): this site's tools will ask before each call and show what they would receive, and a new chat leaves the
 * other origins' data behind. In a task across tabs, what the other tabs showed alone does not call for it.
 */
export function SiteChangeNotice({ sites, pageUrl, otherTabs = [], onNewChat }: SiteChangeNoticeProps) {
  const here = webOriginOf(pageUrl);
  const elsewhere = (sites ?? []).filter((site) => site !== here);
  // Speaks of this tab only: another tab of the task showing its own site is no change here.
  if (!here || !elsewhere.some((site) => !otherTabs.includes(site))) return null;
  const from = elsewhere.map(originLabel).join(', ');
  return (
    <section class="site-change" aria-labelledby="site-change-title">
      <h2 id="site-change-title">Now on {hostOf(here)}</h2>
      <p>
        This conversation holds what the agent read on {from}. Here, every call to {hostOf(here)}’s tools asks you first and shows what it
        would send.
      </p>
      <button type="button" class="primary" onClick={onNewChat}>
        New chat for {hostOf(here)}
      </button>
    </section>
  );
}
