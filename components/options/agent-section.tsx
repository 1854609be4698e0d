import type { OptionsState } from './options-state';

const MODES = [
  { id: 'local', label: 'On-device', hint: 'A small model runs in this browser. Nothing you type leaves your computer.' },
  {
    id: 'cloud',
    label: 'Cloud',
    hint: 'A provider’s model, with your own API key. Better at long tasks; your messages and the page’s tool results go to the provider.',
  },
] as const;

/** Which agent the side panel starts with. */
export function AgentSection({ state }: { state: OptionsState }) {
  const draft = state.draft.value;
  if (!draft) return null;
  return (
    <section class="card" aria-labelledby="agent-title">
      <h2 id="agent-title">Agent</h2>
      <fieldset class="choices">
        <legend class="visually-hidden">Which agent answers in the side panel</legend>
        {MODES.map((mode) => (
          <div class="choice" key={mode.id}>
            <input
              type="radio"
              id={`mode-${mode.id}`}
              name="mode"
              value={mode.id}
              checked={draft.mode === mode.id}
              aria-describedby={`mode-${mode.id}-hint`}
              onChange={() => state.edit('mode', mode.id)}
            />
            <label for={`mode-${mode.id}`}>{mode.label}</label>
            <p class="hint" id={`mode-${mode.id}-hint`}>
              {mode.hint}
            </p>
          </div>
        ))}
      </fieldset>
    </section>
  );
}
