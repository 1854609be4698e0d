import { useMemo } from 'preact/hooks';
import type { PanelTool, TabSnapshot } from '../../lib/messaging/agent-messages';
import type { InspectorStore } from './inspector-store';
import { CallResult } from './call-result';
import { createHandRunState } from './hand-run-state';

/**
 * Run by hand: a form generated from the tool's input schema. The call goes through the agent's validator, the
 * confirmation policy, the bridge and the cursor, exactly as an agent's would, and its result shows below.
 */
export function HandRunForm({ tool, store, tab }: { tool: PanelTool; store: InspectorStore; tab: TabSnapshot }) {
  const state = useMemo(() => createHandRunState(tool, store), [tool.name, JSON.stringify(tool.inputSchema), store]);
  const call = state.call.value;
  const confirmation = call ? tab.confirmations.find((c) => c.callId === call.id) : undefined;
  const formId = `run-${tool.name}`;
  return (
    <form
      class="hand-run"
      aria-label={`Run ${tool.name} by hand`}
      onSubmit={(event) => {
        event.preventDefault();
        state.submit();
      }}
    >
      {state.controls.map((control) => {
        const id = `${formId}-${control.name}`;
        const error = state.fieldErrors.value[control.name];
        const value = state.values.value[control.name];
        const describedBy = [control.description ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
        const common = { id, name: control.name, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined };
        return (
          <div class="hand-run-field" key={control.name}>
            <label for={id}>
              {control.name}
              {control.required && <span class="required"> (required)</span>}
            </label>
            {control.kind === 'checkbox' ? (
              <input
                {...common}
                type="checkbox"
                checked={value === true}
                onChange={(e) => state.set(control.name, e.currentTarget.checked)}
              />
            ) : control.kind === 'select' ? (
              <select {...common} value={String(value)} onChange={(e) => state.set(control.name, e.currentTarget.value)}>
                <option value="">{control.required ? 'Choose…' : '(not set)'}</option>
                {(control.options ?? []).map((option, index) => (
                  <option key={String(index)} value={String(index)}>
                    {typeof option === 'string' ? option : JSON.stringify(option)}
                  </option>
                ))}
              </select>
            ) : control.kind === 'json' ? (
              <textarea
                {...common}
                rows={3}
                spellcheck={false}
                placeholder={control.jsonType === 'array' ? '[ ]' : control.jsonType === 'object' ? '{ }' : 'JSON'}
                value={String(value)}
                onInput={(e) => state.set(control.name, e.currentTarget.value)}
              />
            ) : control.kind === 'text' && state.isSecret(control.name) ? (
              <input
                {...common}
                type="password"
                autoComplete="off"
                value={String(value)}
                onInput={(e) => state.set(control.name, e.currentTarget.value)}
              />
            ) : (
              <input
                {...common}
                type="text"
                inputMode={control.kind === 'number' ? 'decimal' : undefined}
                autoComplete="off"
                value={String(value)}
                onInput={(e) => state.set(control.name, e.currentTarget.value)}
              />
            )}
            {control.kind === 'text' && !control.secret && (
              <label class="secret-toggle">
                <input
                  type="checkbox"
                  checked={state.isSecret(control.name)}
                  onChange={(e) => state.setSecret(control.name, e.currentTarget.checked)}
                />
                Secret (masked in exports)
              </label>
            )}
            {control.description && (
              <p class="field-help" id={`${id}-help`}>
                {control.description}
              </p>
            )}
            {error && (
              <p class="field-error" id={`${id}-error`}>
                {control.name}: {error}
              </p>
            )}
          </div>
        );
      })}
      {state.invalid.value && (
        <p class="field-error" role="alert">
          Not run: {state.invalid.value}
        </p>
      )}
      <button type="submit" class="primary" disabled={call?.state === 'running' || call?.state === 'awaiting-confirmation'}>
        Run {tool.name}
      </button>
      {call && <CallResult record={call} confirmation={confirmation} onConfirm={store.confirm} />}
    </form>
  );
}
