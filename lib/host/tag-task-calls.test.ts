import { describe, expect, it } from 'vitest';
import { createCallTimeline } from '../call-log/call-timeline';
import { type TaskCallRoute, tagTaskCalls } from './tag-task-calls';

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

  it('keeps the title of the page the call ran in, as routed; a route without one records none', () => {
    const routes = new Map<string, TaskCallRoute>([
      ['c1', { name: 'recipes_example__get_ingredients', tabId: 2, site: 'https://recipes.example', title: 'Pancakes' }],
      ['c2', { name: 'courier_example__track', tabId: 3, site: 'https://courier.example' }],
    ]);
    const timeline = createCallTimeline(() => 0);
    const tagged = tagTaskCalls(timeline, (id) => routes.get(id));
    tagged.start({ id: 'c1', by: 'agent', tool: 'get_ingredients', input: {} });
    tagged.start({ id: 'c2', by: 'agent', tool: 'track', input: {} });
    expect(timeline.entries().map((r) => r.tab)).toEqual([
      { tabId: 2, site: 'https://recipes.example', title: 'Pancakes' },
      { tabId: 3, site: 'https://courier.example' },
    ]);
  });
});
