import { CONFIRMATION_POLICIES } from '../../lib/storage/settings';
import type { OptionsState } from './options-state';
import { RadioChoices } from './radio-choices';

/** When tools wait for the person's Allow, and the tools allowed for good on a site. */
export function ConfirmationSection({ state }: { state: OptionsState }) {
  const draft = state.draft.value;
  const settings = state.settings.value;
  if (!draft || !settings) return null;
  return (
    <section class="card" aria-labelledby="confirmation-title">
      <h2 id="confirmation-title">Confirmation</h2>
      <RadioChoices
        name="policy"
        legend={<legend>Ask before a tool runs</legend>}
        choices={CONFIRMATION_POLICIES.map((policy) => ({ id: policy.id, label: policy.label, hint: policy.description }))}
        value={draft.confirmation}
        onChange={(policy) => state.edit('confirmation', policy)}
      >
        <p class="hint">
          Whatever you choose, a tool the site marks as consequential asks every time, and it is never added to “Always allowed”. “Always on
          this site” counts for the site whose tool it is: a tool in an embedded frame of another site is asked about under that site.
        </p>
      </RadioChoices>

      <h3>Always allowed</h3>
      {settings.grants.length === 0 ? (
        <p class="placeholder">None yet. When the side panel asks before a tool runs, “Always on this site” adds the tool here.</p>
      ) : (
        <ul class="grant-list">
          {settings.grants.map((g) => (
            <li key={`${g.origin} ${g.tool}`}>
              <span>
                <code>{g.tool}</code> on {g.origin}
              </span>
              <button
                type="button"
                class="button button--quiet"
                aria-label={`Revoke ${g.tool} on ${g.origin}`}
                onClick={() => void state.revokeGrant(g.origin, g.tool)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
