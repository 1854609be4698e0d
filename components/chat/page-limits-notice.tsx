import type { PageLimitNotice } from '../../lib/messaging/tab-tool-snapshot';

/**
 * What the extension refused of this tab's page because it asked too much (lib/background/page-limits.ts): the
 * extension's words, one line each. The only page words in them (a quoted title, cut) are shown as text.
 */
export function PageLimitsNotice({ limits }: { limits: PageLimitNotice[] | undefined }) {
  if (!limits?.length) return null;
  return (
    <div class="notice page-limits" role="status">
      <p>
        <strong>This page asks more of the extension than it allows.</strong> You can still stop a run or close the tab.
      </p>
      <ul>
        {limits.map((limit) => (
          <li key={limit.kind}>{limit.note}</li>
        ))}
      </ul>
    </div>
  );
}
