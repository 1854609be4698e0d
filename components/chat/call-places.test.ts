import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../lib/messaging/call-record';
import { callPlaces } from './call-places';

const call = (id: string, tab?: CallRecord['tab']): CallRecord => ({
  id,
  at: 0,
  by: 'agent',
  tool: `tool_${id}`,
  input: {},
  state: 'done',
  ...(tab ? { tab } : {}),
});

describe('callPlaces', () => {
  it('names the site and the title the call ran under, as recorded then, and which tab', () => {
    const places = callPlaces(
      [
        call('a', { tabId: 2, site: 'https://recipes.example', title: 'Pancakes' }),
        call('b', { tabId: 1, site: 'http://127.0.0.1:8080', title: 'The shop' }),
      ],
      { tabId: 1 },
    );
    expect(places.get('a')).toBe('recipes.example · Pancakes (tab 2)');
    expect(places.get('b')).toBe('127.0.0.1:8080 · The shop (this tab)');
  });

  it('keeps an earlier call’s place when the tab has moved on: nothing but the record is read', () => {
    // The same tab later shows another site's page; the record made when the call ran is all that counts.
    const timeline = [call('a', { tabId: 2, site: 'https://recipes.example', title: 'Pancakes' })];
    expect(callPlaces(timeline, { tabId: 1 }).get('a')).toBe('recipes.example · Pancakes (tab 2)');
    expect(callPlaces(timeline, { tabId: 2 }).get('a')).toBe('recipes.example · Pancakes (this tab)');
  });

  it('says only the tab when the page had no title, and nothing for a call of a conversation of one tab', () => {
    const places = callPlaces([call('a', { tabId: 3, site: 'https://courier.example' }), call('b')], { tabId: 1 });
    expect(places.get('a')).toBe('courier.example · tab 3');
    expect(places.has('b')).toBe(false);
  });

  it('treats the recorded title as page text: one line, hidden characters gone, capped', () => {
    const title = `Pay\u202Enow\u200B\n\n${'x'.repeat(10_000)}`;
    const place = callPlaces([call('a', { tabId: 2, site: 'https://evil.example', title })], { tabId: 1 }).get('a')!;
    expect(place).not.toMatch(/[\n\u202E\u200B]/);
    expect(place.startsWith('evil.example · Paynow x')).toBe(true);
    expect(place.endsWith('… (tab 2)')).toBe(true);
    expect(place.length).toBeLessThan('evil.example · '.length + 80 + ' (tab 2)'.length + 1);
  });
});
