import { hostOf } from './host-of';

/**
 * Why a message the person typed on one site was not sent: the tab shows `site` now, or (undefined) a page whose
 * site is not known, which counts as another site (docs/security.md, "A conversation belongs to its site"). The
 * panel says it when it finds out first, the agent host otherwise.
 */
export function siteMovedBeforeSend(site: string | undefined): string {
  if (site === undefined) {
    return 'The agent does not know yet which site the tab shows, so your message was not sent. Send it again once the page has loaded.';
  }
  return `The tab moved to ${hostOf(site)} before the agent was ready, so your message was not sent. Send it again to ask about ${hostOf(site)}.`;
}
