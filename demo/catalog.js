/**
 * The demo shop's catalog and its search. Plain data: the views and the WebMCP tools both read it.
 */

/**
 * @typedef {object} Product
 * @property {string} id        Stable id, used in URLs and by the tools (open_product).
 * @property {string} name
 * @property {string} category
 * @property {number} price     In cents, so totals add up exactly.
 * @property {string[]} sizes   Empty when the product comes in one size.
 * @property {string} color     Tile colour of the illustration.
 * @property {string} icon      Which illustration to draw (see icons in app.js).
 * @property {string} summary   One line, shown in lists and search results.
 * @property {string} details   The product page's paragraph.
 * @property {string[]} tags    Extra words search matches on.
 */

/** @type {Product[]} */
export const PRODUCTS = [
  {
    id: 'linen-shirt',
    name: 'Linen Shirt',
    category: 'Clothing',
    price: 5900,
    sizes: ['Small', 'Medium', 'Large'],
    color: '#e8d8c3',
    icon: 'shirt',
    summary: 'Breathable washed linen, relaxed fit.',
    details: 'Washed European linen that gets softer with every wash. Relaxed fit, mother-of-pearl buttons, a chest pocket.',
    tags: ['top', 'summer', 'button'],
  },
  {
    id: 'merino-tee',
    name: 'Merino T-Shirt',
    category: 'Clothing',
    price: 4500,
    sizes: ['Small', 'Medium', 'Large'],
    color: '#b9cbd9',
    icon: 'shirt',
    summary: 'Fine merino wool tee that stays fresh for days.',
    details: '150 g/m² merino jersey: warm when it is cool, cool when it is warm, and it does not hold odours.',
    tags: ['top', 'wool', 'tshirt', 't-shirt', 'travel'],
  },
  {
    id: 'rain-jacket',
    name: 'Packable Rain Jacket',
    category: 'Clothing',
    price: 12900,
    sizes: ['Small', 'Medium', 'Large'],
    color: '#f2c14e',
    icon: 'jacket',
    summary: 'Waterproof shell that packs into its own pocket.',
    details: 'A 2.5-layer waterproof, breathable shell with taped seams and a hood that moves with you. Packs into its chest pocket.',
    tags: ['coat', 'waterproof', 'outerwear', 'hiking'],
  },
  {
    id: 'wool-socks',
    name: 'Wool Hiking Socks',
    category: 'Clothing',
    price: 1800,
    sizes: ['Small', 'Medium', 'Large'],
    color: '#c97b63',
    icon: 'sock',
    summary: 'Cushioned merino socks for long days on the trail.',
    details: 'Merino blend with a cushioned sole and a seamless toe. Sold as one pair.',
    tags: ['sock', 'hiking', 'wool', 'feet'],
  },
  {
    id: 'ceramic-mug',
    name: 'Stoneware Mug',
    category: 'Kitchen',
    price: 2200,
    sizes: [],
    color: '#8fb9a8',
    icon: 'mug',
    summary: 'Hand-glazed 350 ml mug, every one a little different.',
    details: 'Thrown and glazed by hand in a small studio. 350 ml, dishwasher and microwave safe.',
    tags: ['cup', 'coffee', 'tea', 'ceramic'],
  },
  {
    id: 'steel-bottle',
    name: 'Insulated Bottle',
    category: 'Outdoor',
    price: 3400,
    sizes: [],
    color: '#7f9bd1',
    icon: 'bottle',
    summary: 'Keeps drinks cold for 24 hours, hot for 12.',
    details: 'Double-wall vacuum-insulated stainless steel, 750 ml, with a leak-proof lid and a carry loop.',
    tags: ['water', 'flask', 'drink', 'hiking'],
  },
  {
    id: 'day-pack',
    name: 'Day Pack 22 L',
    category: 'Outdoor',
    price: 8900,
    sizes: [],
    color: '#5e8c61',
    icon: 'backpack',
    summary: 'A light 22 litre backpack with a laptop sleeve.',
    details: 'Recycled ripstop, padded straps, a sleeve for a 15" laptop and two side pockets for bottles.',
    tags: ['bag', 'backpack', 'rucksack', 'hiking', 'laptop'],
  },
  {
    id: 'canvas-tote',
    name: 'Canvas Tote',
    category: 'Outdoor',
    price: 2500,
    sizes: [],
    color: '#d9c7a0',
    icon: 'tote',
    summary: 'Heavy cotton canvas tote for the market run.',
    details: 'Heavyweight organic cotton canvas with long handles and an inside pocket.',
    tags: ['bag', 'shopping', 'cotton'],
  },
];

/** @param {string} id */
export function findProduct(id) {
  const wanted = String(id ?? '')
    .trim()
    .toLowerCase();
  return PRODUCTS.find((p) => p.id === wanted || p.name.toLowerCase() === wanted);
}

/**
 * Word search over name, category, summary and tags. Every word of the query must match somewhere
 * (prefix match, so "sock" finds "socks"); name hits rank first. An empty query lists everything.
 * @param {string} query
 * @param {number} [limit]
 * @returns {Product[]}
 */
export function searchProducts(query, limit = PRODUCTS.length) {
  const words = String(query ?? '')
    .toLowerCase()
    .split(/[^a-z0-9-]+/)
    .filter(Boolean);
  if (words.length === 0) return PRODUCTS.slice(0, limit);
  const scored = [];
  for (const product of PRODUCTS) {
    const name = product.name.toLowerCase().split(/[^a-z0-9-]+/);
    const rest = [product.category, product.summary, ...product.tags]
      .join(' ')
      .toLowerCase()
      .split(/[^a-z0-9-]+/);
    let score = 0;
    let all = true;
    for (const word of words) {
      const stem = word.length > 3 ? word.replace(/e?s$/, '') : word;
      if (name.some((w) => w.startsWith(stem))) score += 2;
      else if (rest.some((w) => w.startsWith(stem))) score += 1;
      else all = false;
    }
    if (all) scored.push({ product, score });
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((s) => s.product);
}

/** @param {number} cents */
export function formatPrice(cents) {
  return `$${(cents / 100).toFixed(2)}`;
}
