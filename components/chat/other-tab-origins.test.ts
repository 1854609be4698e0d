import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../lib/messaging/call-record';
import { otherTabOrigins } from './other-tab-origins';

const call = (over: Partial<CallRecord>): CallRecord => ({ id: 'c', at: 0, by: 'agent', tool: 't', input: {}, state: 'done', ...over });

describe('otherTabOrigins', () => {
  it('is empty without a tab, and for a conversation of one tab', () => {
    expect(otherTabOrigins(undefined, [])).toEqual([]);
    expect(otherTabOrigins({ tabId: 1 }, [call({ origin: 'https://shop.example' })])).toEqual([]);
  });

  it('lists the sites the task’s other tabs joined under, those that left, and the frames of calls there', () => {
    const tab = {
      tabId: 1,
      taskTabs: [{ tabId: 2, site: 'https://recipes.example' }],
      taskLeft: [{ tabId: 3, site: 'https://maps.example' }],
    } as Parameters<typeof otherTabOrigins>[0];
    const timeline = [
      call({ tab: { tabId: 1, site: 'https://shop.example' }, origin: 'https://shop.example' }),
      call({ tab: { tabId: 2, site: 'https://recipes.example' }, origin: 'https://widgets.example' }),
    ];
    expect(otherTabOrigins(tab, timeline)).toEqual(['https://recipes.example', 'https://maps.example', 'https://widgets.example']);
  });
});
