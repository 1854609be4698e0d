import type { SiteProfile } from './settings';

/** Where `npm start` serves the demo shop. */
const DEMO_SHOP_ORIGIN = 'http://127.0.0.1:5174';

/**
 * The demo shop's example site profile: the site's agent browses and fills the cart, and hands checking out to
 * a "checkout" sub-agent that holds only get_cart and check_out. demo/README.md shows the same profile.
 */
export const DEMO_SITE_PROFILE: SiteProfile = {
  origin: DEMO_SHOP_ORIGIN,
  instructions:
    'A small outdoor clothing shop. To buy: search_products, open_product, then add_to_cart. When the person wants to check out, hand it to the checkout agent with their name, email and shipping choice.',
  maxSteps: 8,
  tools: ['search_products', 'open_product', 'add_to_cart', 'get_cart'],
  subAgents: [
    {
      id: 'checkout',
      name: 'Checkout',
      instructions:
        'You place the order for the cart. First read it with get_cart, then call check_out with the buyer’s name and email (and shipping, if given). If the name or email is missing, say so instead of guessing.',
      tools: ['get_cart', 'check_out'],
      maxSteps: 4,
    },
  ],
};
