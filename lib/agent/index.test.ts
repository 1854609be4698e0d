import { describe, expect, it } from 'vitest';
import * as agent from './index';

describe('lib/agent public surface', () => {
  it('exports the loop and its parts', () => {
    for (const name of ['runLocalAgent', 'rankTools', 'parseToolCalls', 'validateArgs', 'reduceStreamPart', 'reduceRunState', 'buildSystemPrompt', 'trimHistory', 'selectTools', 'runSubAgent', 'createDelegation']) {
      expect(typeof (agent as Record<string, unknown>)[name]).toBe('function');
    }
    expect(agent.TOOL_ERROR_CODES.navigated).toBeTypeOf('string');
    expect(agent.LOCAL_LOOP_DEFAULTS.maxSteps).toBe(6);
  });
});
