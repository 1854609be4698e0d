import { formatBytes } from '../shared/format-bytes';
import type { ChatStore } from './chat-store';

/** The Agent control, the model picker when the agent offers more than one model, and why the device got its model. */
export function AgentControls({ store }: { store: ChatStore }) {
  const adapter = store.adapter.value;
  const running = store.tab.value?.running ?? false;
  const models = adapter?.models ?? [];
  const selectedModel = models.find((m) => m.selected) ?? models.find((m) => m.recommended) ?? models[0];
  return (
    <>
      <div class="controls">
        <select
          aria-label="Agent"
          value={store.chosen.value ?? 'local'}
          onChange={(e) => store.chooseAdapter((e.currentTarget as HTMLSelectElement).value as 'local' | 'cloud')}
        >
          <option value="local">On-device</option>
          <option value="cloud">Cloud</option>
        </select>
        {models.length > 1 && (
          <select
            class="model"
            aria-label="Model"
            value={selectedModel?.id}
            disabled={running}
            onChange={(e) => store.chooseModel((e.currentTarget as HTMLSelectElement).value)}
          >
            {models.map((m) => (
              <option key={m.id} value={m.id} title={m.brief}>
                {m.label}
                {m.bytes ? ` · ${formatBytes(m.bytes)}` : ''}
                {m.cached ? ' · downloaded' : ''}
                {m.measured ? ` · ${m.measured}` : ''}
              </option>
            ))}
          </select>
        )}
      </div>
      {models.length > 1 && selectedModel?.why && (
        <p class="model-why">
          {/* Why the device got this model; the picker above changes it. */}
          Picked for this device: {selectedModel.why}
        </p>
      )}
    </>
  );
}
