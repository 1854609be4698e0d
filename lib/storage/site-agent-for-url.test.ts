import { describe, expect, it } from 'vitest';
import type { SiteProfile } from './settings';
import { siteAgentForUrl } from './site-agent-for-url';

const profiles: SiteProfile[] = [
  { origin: 'https://shop.example', instructions: 'To buy: search, open_product, add_to_cart.', maxSteps: 4, tools: ['search'] },
  { origin: 'http://127.0.0.1:8080', instructions: '' },
];

describe('siteAgentForUrl', () => {
  it('maps a page to the profile of its exact origin, as a WebAgent named after the origin', () => {
    expect(siteAgentForUrl(profiles, 'https://shop.example/products/42?x=1#top')).toEqual({
      id: 'https://shop.example',
      instructions: 'To buy: search, open_product, add_to_cart.',
      maxSteps: 4,
      tools: ['search'],
    });
    expect(siteAgentForUrl(profiles, 'http://127.0.0.1:8080/plain.html')).toEqual({ id: 'http://127.0.0.1:8080' });
  });

  it('gives nothing for other origins, subdomains, schemes and non-URLs', () => {
    expect(siteAgentForUrl(profiles, 'https://www.shop.example/')).toBeUndefined();
    expect(siteAgentForUrl(profiles, 'http://shop.example/')).toBeUndefined();
    expect(siteAgentForUrl(profiles, 'chrome://extensions')).toBeUndefined();
    expect(siteAgentForUrl(profiles, 'not a url')).toBeUndefined();
    expect(siteAgentForUrl(profiles, undefined)).toBeUndefined();
  });

  it('returns a copy: changing the agent does not change the profile', () => {
    const agent = siteAgentForUrl(profiles, 'https://shop.example/');
    (agent!.tools as string[]).push('delete_everything');
    expect(profiles[0].tools).toEqual(['search']);
  });
});

describe('siteAgentForUrl: sub-agents', () => {
  const shop: SiteProfile = {
    origin: 'https://shop.example',
    instructions: '',
    tools: ['search'],
    subAgents: [
      { id: 'checkout', name: 'Checkout', instructions: 'Check out.', tools: ['check_out'], maxSteps: 3, subAgents: ['payment'] },
      { id: 'payment', name: 'Payment', instructions: '', subAgents: ['checkout'] },
    ],
  };

  it('gives the site’s agent every sub-agent, and each sub-agent the ones it hands to, as a tree cut at depth 2', () => {
    const agent = siteAgentForUrl([shop], 'https://shop.example/');
    expect(agent?.subAgents?.map((s) => s.id)).toEqual(['checkout', 'payment']);
    const checkout = agent?.subAgents?.[0];
    expect(checkout).toMatchObject({ id: 'checkout', name: 'Checkout', instructions: 'Check out.', tools: ['check_out'], maxSteps: 3 });
    // A stored cycle (which validation refuses) still gives a finite tree.
    expect(checkout?.subAgents?.map((s) => s.id)).toEqual(['payment']);
    expect(checkout?.subAgents?.[0].subAgents).toBeUndefined();
  });
});
