import { computed, type ReadonlySignal, signal } from '@preact/signals';
import { validateArgs } from '../../lib/agent/validate-args';
import type { CallRecord } from '../../lib/messaging/call-record';
import { buildHandRunForm, type HandRunControl, readHandRunForm } from '../../lib/call-log/hand-run-form';
import type { PanelTool } from '../../lib/messaging/agent-messages';
import type { InspectorStore } from './inspector-store';

/** One tool's run-by-hand form: its controls, what the person typed, what is wrong, and the call it started. */
interface HandRunState {
  controls: HandRunControl[];
  values: ReadonlySignal<Record<string, string | boolean>>;
  /** Per-field problems, from the form itself. */
  fieldErrors: ReadonlySignal<Record<string, string>>;
  /** The schema validator's verdict, when the form was fine but the arguments were not. */
  invalid: ReadonlySignal<string | undefined>;
  /** The timeline entry of the last call this form started. */
  call: ReadonlySignal<CallRecord | undefined>;
  set(name: string, value: string | boolean): void;
  /** Marks an argument secret (masked in exports) or not. */
  setSecret(name: string, secret: boolean): void;
  isSecret(name: string): boolean;
  submit(): void;
}

/** Creates the form's state for a tool, over the panel's store (which runs the call and holds the timeline). */
export function createHandRunState(tool: PanelTool, store: InspectorStore): HandRunState {
  const controls = buildHandRunForm(tool.inputSchema);
  const values = signal<Record<string, string | boolean>>(Object.fromEntries(controls.map((c) => [c.name, c.initial])));
  const fieldErrors = signal<Record<string, string>>({});
  const invalid = signal<string | undefined>(undefined);
  const requestId = signal<string | undefined>(undefined);
  const call = computed(() => (requestId.value ? store.timeline.value.find((r) => r.requestId === requestId.value) : undefined));
  const secretByDefault = new Set(controls.filter((c) => c.secret).map((c) => c.name));
  return {
    controls,
    values,
    fieldErrors,
    invalid,
    call,
    set(name, value) {
      values.value = { ...values.value, [name]: value };
      if (fieldErrors.value[name]) {
        const { [name]: _cleared, ...rest } = fieldErrors.value;
        fieldErrors.value = rest;
      }
    },
    setSecret(name, secret) {
      const current = new Set(store.secretFields.value[tool.name] ?? []);
      if (secret) current.add(name);
      else current.delete(name);
      store.secretFields.value = { ...store.secretFields.value, [tool.name]: [...current] };
    },
    isSecret: (name) => secretByDefault.has(name) || (store.secretFields.value[tool.name] ?? []).includes(name),
    submit() {
      invalid.value = undefined;
      const read = readHandRunForm(controls, values.value);
      if (!read.ok) {
        fieldErrors.value = Object.fromEntries(read.errors.map((e) => [e.name, e.message]));
        return;
      }
      fieldErrors.value = {};
      // The agent's own validator, so a by-hand call is refused exactly when an agent's would be.
      const verdict = validateArgs(tool.inputSchema, read.input);
      if (!verdict.ok) {
        invalid.value = verdict.message;
        return;
      }
      requestId.value = store.runTool(tool.name, read.input);
    },
  };
}
