import { describe, expect, it } from 'vitest';
import { siteMovedBeforeSend } from './site-moved-before-send';

describe('siteMovedBeforeSend', () => {
  it('names the site the tab shows now by its host', () => {
    expect(siteMovedBeforeSend('https://partner.example:8443')).toBe(
      'The tab moved to partner.example:8443 before the agent was ready, so your message was not sent. Send it again to ask about partner.example:8443.',
    );
  });

  it('says so when the site the tab shows is not known: that is another site too', () => {
    expect(siteMovedBeforeSend(undefined)).toBe(
      'The agent does not know yet which site the tab shows, so your message was not sent. Send it again once the page has loaded.',
    );
  });
});
