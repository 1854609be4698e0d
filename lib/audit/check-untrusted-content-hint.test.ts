import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkUntrustedContentHint } from './check-untrusted-content-hint';

const rules = (patch: Parameters<typeof panelTool>[0]) => checkUntrustedContentHint({ tools: [panelTool(patch)] }).map((f) => f.message);

describe('checkUntrustedContentHint', () => {
  it('finds nothing in tools that return the site’s own data, in marked tools, or in tools that only write', () => {
    expect(rules({})).toEqual([]);
    expect(rules({ name: 'subscribe_newsletter', description: 'Subscribe an email address to the newsletter.', annotations: {} })).toEqual(
      [],
    );
    expect(
      rules({
        name: 'read_reviews',
        description: 'Reads the product reviews.',
        annotations: { readOnlyHint: true, untrustedContentHint: true },
      }),
    ).toEqual([]);
    expect(rules({ name: 'post_review', description: 'Posts a review of the product.', annotations: {} })).toEqual([]);
  });

  it('flags a reader of reviews, messages or web search results without untrustedContentHint', () => {
    expect(rules({ name: 'read_reviews', description: 'Reads the product reviews.' })).toEqual([
      'It looks like it returns text others wrote (“reviews” in the name), but it is not marked untrustedContentHint.',
    ]);
    expect(rules({ name: 'list_inbox', description: 'Lists the newest mail.', annotations: {} })).toHaveLength(1);
    expect(rules({ name: 'search_web', description: 'Returns web results for a query.', annotations: {} })).toEqual([
      'It looks like it returns text others wrote (“web results” in the description), but it is not marked untrustedContentHint.',
    ]);
  });
});
