import { callerLabel, type GrantCaller, sameCaller } from '../../lib/storage/grant-caller';
import { CONFIRMATION_POLICIES, type ToolGrant } from '../../lib/storage/settings';
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
        <>
          <p class="hint">
            Each is allowed for the one who asked: the in-browser agent’s never cover a desktop agent, and one desktop agent’s never cover
            another’s.
          </p>
          {grantsByCaller(settings.grants).map(({ caller, label, grants }) => (
            <section class="grant-caller" key={label} aria-label={label}>
              <h4>{label}</h4>
              <ul class="grant-list">
                {grants.map((g) => (
                  <li key={`${g.origin} ${g.tool}`}>
                    <span>
                      <code>{g.tool}</code> on {g.origin}
                    </span>
                    <button
                      type="button"
                      class="button button--quiet"
                      aria-label={`Revoke ${g.tool} on ${g.origin} for ${label}`}
                      onClick={() => void state.revokeGrant(g.origin, g.tool, caller)}
                    >
                      Revoke
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
    </section>
  );
}

/** The grants grouped by caller: the in-browser agent's first, then each desktop agent's by name. */
function grantsByCaller(grants: ToolGrant[]): { caller: GrantCaller; label: string; grants: ToolGrant[] }[] {
  const groups: { caller: GrantCaller; label: string; grants: ToolGrant[] }[] = [];
  for (const grant of grants) {
    const group = groups.find((g) => sameCaller(g.caller, grant.caller));
    if (group) group.grants.push(grant);
    else groups.push({ caller: grant.caller, label: callerLabel(grant.caller), grants: [grant] });
  }
  const rank = (caller: GrantCaller) => (caller.kind === 'agent' ? '' : caller.name);
  return groups.sort((a, b) => rank(a.caller).localeCompare(rank(b.caller)));
}
