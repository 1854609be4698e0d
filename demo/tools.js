/**
 * The shop's imperative WebMCP tools. Each does what the matching button does, moves the view so the
 * person sees it happen, and answers with JSON text the model can read (no references to the page).
 */
import { addToCart, checkOut, getCart, MAX_QUANTITY, SHIPPING_OPTIONS } from './cart.js';
import { findProduct, formatPrice, PRODUCTS, searchProducts } from './catalog.js';
import { textResult } from './webmcp.js';

function productSummary(p) {
  return {
    id: p.id,
    name: p.name,
    category: p.category,
    price: formatPrice(p.price),
    ...(p.sizes.length ? { sizes: p.sizes } : {}),
    summary: p.summary,
  };
}

function cartSummary() {
  const cart = getCart();
  return {
    lines: cart.lines.map((l) => ({
      productId: l.productId,
      name: l.name,
      ...(l.size ? { size: l.size } : {}),
      quantity: l.quantity,
      price: formatPrice(l.unitPrice),
      lineTotal: formatPrice(l.lineTotal),
    })),
    itemCount: cart.itemCount,
    subtotal: formatPrice(cart.subtotal),
  };
}

/**
 * Tools that exist on every view of the shop.
 * @param {{ navigate: (hash: string) => void }} app
 */
export function siteTools(app) {
  return [
    {
      name: 'search_products',
      title: 'Search products',
      description:
        'Search the shop\'s catalog by words (for example "rain jacket" or "mug"). Returns matching products with their id, price and sizes. Use an empty query to list everything.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words to look for in product names and descriptions.' },
          maxResults: { type: 'integer', minimum: 1, maximum: 20, description: 'At most this many products (default 8).' },
        },
        required: ['query'],
      },
      annotations: { readOnlyHint: true },
      execute: ({ query, maxResults }) => {
        const results = searchProducts(query, maxResults ?? 8);
        app.navigate(`#/search?q=${encodeURIComponent(query ?? '')}`);
        return textResult({
          message: results.length
            ? `Found ${results.length} product(s) for "${query}".`
            : `No products match "${query}". Try other words, or an empty query to list everything.`,
          results: results.map(productSummary),
        });
      },
    },
    {
      name: 'open_product',
      title: 'Open a product',
      description:
        "Open a product's page by its id (from search_products). It shows the details and sizes, and makes add_to_cart available for that product.",
      inputSchema: {
        type: 'object',
        properties: {
          productId: {
            type: 'string',
            enum: PRODUCTS.map((p) => p.id),
            description: 'The product id, for example "linen-shirt".',
          },
        },
        required: ['productId'],
      },
      annotations: { readOnlyHint: true },
      execute: ({ productId }) => {
        const product = findProduct(productId);
        if (!product) {
          return textResult(`Error: there is no product "${productId}". Known ids: ${PRODUCTS.map((p) => p.id).join(', ')}.`, true);
        }
        app.navigate(`#/product/${product.id}`);
        return textResult({
          message: `Opened ${product.name}. add_to_cart now adds this product.`,
          product: { ...productSummary(product), details: product.details },
        });
      },
    },
    {
      name: 'get_cart',
      title: 'Read the cart',
      description: 'Read the cart: its lines (product, size, quantity, price) and the subtotal.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      execute: () => {
        const cart = cartSummary();
        return textResult({
          message: cart.itemCount ? `The cart has ${cart.itemCount} item(s), subtotal ${cart.subtotal}.` : 'The cart is empty.',
          ...cart,
        });
      },
    },
    {
      name: 'check_out',
      title: 'Check out',
      description:
        'Place the order for everything in the cart and empty it. This buys the items: only call it when the person asked to check out.',
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: "The buyer's full name." },
          email: { type: 'string', format: 'email', description: 'Where the order confirmation goes.' },
          shipping: {
            type: 'string',
            enum: SHIPPING_OPTIONS,
            description: 'Standard (free, 3-5 days) or Express ($12.00, next day). Default Standard.',
          },
        },
        required: ['name', 'email'],
      },
      annotations: { consequentialHint: true },
      execute: ({ name, email, shipping }) => {
        const order = checkOut({ name, email, shipping });
        app.navigate(`#/order/${order.orderNumber}`);
        return textResult({
          message: `Order ${order.orderNumber} placed: ${order.lines.length} line(s), total ${formatPrice(order.total)}. A confirmation goes to ${order.email}.`,
          orderNumber: order.orderNumber,
          total: formatPrice(order.total),
          shipping: order.shipping,
        });
      },
    },
  ];
}

/**
 * The tool that only exists on a product's page: it adds that product, so its schema offers exactly
 * the product's sizes.
 * @param {import('./catalog.js').Product} product
 */
export function productTools(product) {
  const properties = {
    quantity: { type: 'integer', minimum: 1, maximum: MAX_QUANTITY, description: 'How many (default 1).' },
  };
  if (product.sizes.length) {
    properties.size = { type: 'string', enum: product.sizes, description: `The size: ${product.sizes.join(', ')}.` };
  }
  return [
    {
      name: 'add_to_cart',
      title: `Add ${product.name} to the cart`,
      description: `Add the product open on this page (${product.name}, ${formatPrice(product.price)}) to the cart${product.sizes.length ? ' in the chosen size' : ''}.`,
      inputSchema: {
        type: 'object',
        properties,
        ...(product.sizes.length ? { required: ['size'] } : {}),
      },
      execute: ({ size, quantity }) => {
        const added = addToCart(product.id, size, quantity ?? 1);
        const cart = cartSummary();
        return textResult({
          message: `Added ${added.quantity} × ${product.name}${added.size ? ` (${added.size})` : ''} to the cart. The cart has ${cart.itemCount} item(s), subtotal ${cart.subtotal}.`,
          cart,
        });
      },
    },
  ];
}
