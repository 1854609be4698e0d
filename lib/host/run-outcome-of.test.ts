import { describe, expect, it } from 'vitest';
import { initialRunState, reduceRunState } from '../agent/reduce-stream-part';
import type { AgentStreamPart } from '../agent/types';
import { SITE_CHANGED_RUN_ERROR } from './create-run-guard';
import { runOutcomeOf } from './run-outcome-of';

const ended = (part: AgentStreamPart) => reduceRunState(initialRunState([]), part);

describe('runOutcomeOf', () => {
  it('says how the adapter finished', () => {
    expect(runOutcomeOf(ended({ type: 'finish', reason: 'stop' }), undefined)).toEqual({ reason: 'stop' });
    expect(runOutcomeOf(ended({ type: 'finish', reason: 'max-steps' }), undefined)).toEqual({ reason: 'max-steps' });
    expect(runOutcomeOf(ended({ type: 'finish', reason: 'aborted' }), undefined)).toEqual({ reason: 'aborted' });
  });

  it('carries the adapter’s error and its code', () => {
    expect(runOutcomeOf(ended({ type: 'error', error: 'Rate limited.', code: 'rate_limited' }), undefined)).toEqual({
      reason: 'error',
      error: 'Rate limited.',
      code: 'rate_limited',
    });
    expect(runOutcomeOf(ended({ type: 'error', error: 'It broke.' }), undefined)).toEqual({ reason: 'error', error: 'It broke.' });
    expect(runOutcomeOf({ ...initialRunState([]), status: 'error' }, undefined)).toEqual({ reason: 'error', error: 'The run failed.' });
  });

  it('says the tab left the run’s site, whatever the adapter said', () => {
    const crossed = { from: 'https://shop.test', to: 'https://evil.test' };
    const expected = { reason: 'error', error: SITE_CHANGED_RUN_ERROR(crossed.from, crossed.to), code: 'site_changed' };
    expect(runOutcomeOf(ended({ type: 'finish', reason: 'stop' }), crossed)).toEqual(expected);
    expect(runOutcomeOf(ended({ type: 'error', error: 'It broke.' }), crossed)).toEqual(expected);
  });
});
