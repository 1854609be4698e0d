import type { OptionsState } from './options-state';
import { RadioChoices } from './radio-choices';

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
      <RadioChoices
        name="mode"
        legend={<legend class="visually-hidden">Which agent answers in the side panel</legend>}
        choices={MODES}
        value={draft.mode}
        onChange={(mode) => state.edit('mode', mode)}
      />
    </section>
  );
}
