import { describe, expect, it } from 'vitest';
import { OUTCOME_UNKNOWN_NOTE } from '../../lib/agent/tool-error-codes';
import { toolStateWords } from './tool-state-words';

describe('toolStateWords', () => {
  it('names each state in the panel’s words', () => {
    expect(toolStateWords('running')).toBe('running');
    expect(toolStateWords('awaiting-confirmation')).toBe('waiting for you');
    expect(toolStateWords('done')).toBe('done');
    expect(toolStateWords('cancelled')).toBe('cancelled');
    expect(toolStateWords('error', 'Error [invalid_arguments]: size must be one of S, M, L')).toBe('failed');
  });

  it('says a failed call may still have acted when the error says its outcome is unknown', () => {
    expect(toolStateWords('error', `Error [frame_gone]: The page went away. ${OUTCOME_UNKNOWN_NOTE}`)).toBe('outcome unknown');
  });
});
