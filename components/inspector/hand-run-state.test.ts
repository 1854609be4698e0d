import { describe, expect, it } from 'vitest';
import type { PanelTool } from '../../lib/messaging/agent-messages';
import { createHandRunState } from './hand-run-state';
import { fakeInspectorStore } from './inspector-store-fake';

const LOGIN: PanelTool = {
  name: 'log_in',
  description: 'Log in.',
  inputSchema: {
    type: 'object',
    properties: {
      user: { type: 'string', minLength: 3 },
      password: { type: 'string', format: 'password' },
      remember: { type: 'boolean' },
    },
    required: ['user', 'password'],
  },
};

function setUp() {
  const store = fakeInspectorStore();
  const runs: [string, Record<string, unknown>][] = [];
  store.runTool = (name, input) => {
    runs.push([name, input]);
    return 'req-1';
  };
  return { store, runs, state: createHandRunState(LOGIN, store) };
}

describe('createHandRunState', () => {
  it('builds a control per parameter and marks a password secret by default', () => {
    const { state } = setUp();
    expect(state.controls.map((c) => [c.name, c.kind])).toEqual([
      ['user', 'text'],
      ['password', 'text'],
      ['remember', 'checkbox'],
    ]);
    expect(state.isSecret('password')).toBe(true);
    expect(state.isSecret('user')).toBe(false);
  });

  it('shows the form’s own problems per field and runs nothing', () => {
    const { state, runs } = setUp();
    state.submit();
    expect(Object.keys(state.fieldErrors.value).sort()).toEqual(['password', 'user']);
    expect(runs).toEqual([]);
    state.set('user', 'ada');
    expect(state.fieldErrors.value.user).toBeUndefined();
  });

  it('refuses with the agent’s own validator when the arguments break the schema, and runs what passes', () => {
    const { state, runs, store } = setUp();
    state.set('user', 'al');
    state.set('password', 'pw');
    state.submit();
    expect(state.invalid.value).toMatch(/user/);
    expect(runs).toEqual([]);
    state.set('user', 'ada');
    state.submit();
    expect(state.invalid.value).toBeUndefined();
    expect(runs).toEqual([['log_in', { user: 'ada', password: 'pw', remember: false }]]);
    (store.timeline as unknown as { value: unknown[] }).value = [
      { id: 'c1', at: 0, by: 'person', tool: 'log_in', requestId: 'req-1', input: {}, state: 'running' },
    ];
    expect(state.call.value?.id).toBe('c1');
  });

  it('keeps the person’s secret marks in the store, per tool', () => {
    const { state, store } = setUp();
    state.setSecret('user', true);
    expect(store.secretFields.value).toEqual({ log_in: ['user'] });
    expect(state.isSecret('user')).toBe(true);
    state.setSecret('user', false);
    expect(state.isSecret('user')).toBe(false);
  });
});
