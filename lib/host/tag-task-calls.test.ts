import { describe, expect, it } from 'vitest';
import { createCallTimeline } from '../inspector/call-timeline';
import { tagTaskCalls } from './tag-task-calls';

describe('tagTaskCalls', () => {
  it('records a routed call under the name the model called, with its tab and site; any other call as it is', () => {
    const timeline = createCallTimeline(() => 1);
    const tagged = tagTaskCalls(timeline, (id) =>
      id === 'c1' ? { name: 'recipes_example__search', tabId: 7, site: 'https://recipes.example' } : undefined,
    );
    tagged.start({ id: 'c1', by: 'agent', tool: 'search', input: {} });
    tagged.start({ id: 'c2', by: 'agent', tool: 'search', input: {} });
    expect(timeline.entries().map((r) => [r.id, r.tool, r.tab])).toEqual([
      ['c1', 'recipes_example__search', { tabId: 7, site: 'https://recipes.example' }],
      ['c2', 'search', undefined],
    ]);
    expect(tagged.entries()).toEqual(timeline.entries());
  });
});
