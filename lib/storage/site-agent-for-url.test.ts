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
