/**
 * The cart and the orders: one small store that the views and the WebMCP tools share, kept in
 * localStorage so a reload (or the agent navigating) loses nothing.
 */
import { findProduct } from './catalog.js';

const CART_KEY = 'webmcp-demo-shop:cart';
const ORDERS_KEY = 'webmcp-demo-shop:orders';
const SHIPPING = { Standard: 0, Express: 1200 };
export const SHIPPING_OPTIONS = Object.keys(SHIPPING);
export const MAX_QUANTITY = 10;

/** @typedef {{ productId: string, size: string | null, quantity: number }} CartLine */

/** @type {Set<() => void>} */
const listeners = new Set();

function read(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? 'null');
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  localStorage.setItem(key, JSON.stringify(value));
  for (const listener of listeners) listener();
}

/** Call `listener` after every change; returns the unsubscribe function. */
export function onCartChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** @returns {CartLine[]} */
function lines() {
  return read(CART_KEY, []).filter((line) => findProduct(line.productId));
}

/**
 * Adds a product (a size is required when the product has sizes). Throws an Error whose message is
 * written for the person or the model that asked.
 * @param {string} productId
 * @param {string | null | undefined} size
 * @param {number} quantity
 */
export function addToCart(productId, size, quantity = 1) {
  const product = findProduct(productId);
  if (!product) throw new Error(`There is no product "${productId}".`);
  let chosen = null;
  if (product.sizes.length > 0) {
    chosen =
      product.sizes.find(
        (s) =>
          s.toLowerCase() ===
          String(size ?? '')
            .trim()
            .toLowerCase(),
      ) ?? null;
    if (!chosen) {
      throw new Error(
        size
          ? `${product.name} comes in ${product.sizes.join(', ')}, not "${size}".`
          : `Choose a size for ${product.name}: ${product.sizes.join(', ')}.`,
      );
    }
  }
  const qty = Number(quantity ?? 1);
  if (!Number.isInteger(qty) || qty < 1 || qty > MAX_QUANTITY) {
    throw new Error(`Quantity must be a whole number from 1 to ${MAX_QUANTITY}.`);
  }
  const current = lines();
  const existing = current.find((l) => l.productId === product.id && l.size === chosen);
  if (existing) existing.quantity = Math.min(MAX_QUANTITY, existing.quantity + qty);
  else current.push({ productId: product.id, size: chosen, quantity: qty });
  write(CART_KEY, current);
  return { product, size: chosen, quantity: qty };
}

/** Removes one line of the cart. */
export function removeFromCart(productId, size) {
  write(
    CART_KEY,
    lines().filter((l) => !(l.productId === productId && l.size === (size || null))),
  );
}

/** The cart as the views and the tools show it. */
export function getCart() {
  const detailed = lines().map((line) => {
    const product = findProduct(line.productId);
    return {
      productId: product.id,
      name: product.name,
      size: line.size,
      quantity: line.quantity,
      unitPrice: product.price,
      lineTotal: product.price * line.quantity,
    };
  });
  return {
    lines: detailed,
    itemCount: detailed.reduce((n, l) => n + l.quantity, 0),
    subtotal: detailed.reduce((n, l) => n + l.lineTotal, 0),
  };
}

/**
 * Places the order for the whole cart and empties it.
 * @param {{ name: string, email: string, shipping?: string }} customer
 */
export function checkOut(customer) {
  const cart = getCart();
  if (cart.lines.length === 0) throw new Error('The cart is empty: add something before checking out.');
  const name = String(customer?.name ?? '').trim();
  const email = String(customer?.email ?? '').trim();
  const shipping = customer?.shipping ?? 'Standard';
  if (!name) throw new Error('A name is needed for the order.');
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new Error(`"${email}" is not an email address.`);
  if (!(shipping in SHIPPING)) throw new Error(`Shipping is ${SHIPPING_OPTIONS.join(' or ')}, not "${shipping}".`);
  const orders = read(ORDERS_KEY, []);
  const order = {
    orderNumber: `WM-${String(1001 + orders.length)}`,
    name,
    email,
    shipping,
    lines: cart.lines,
    subtotal: cart.subtotal,
    shippingCost: SHIPPING[shipping],
    total: cart.subtotal + SHIPPING[shipping],
    placedAt: new Date().toISOString(),
  };
  localStorage.setItem(ORDERS_KEY, JSON.stringify([...orders, order]));
  write(CART_KEY, []);
  return order;
}

/** @param {string} orderNumber */
export function findOrder(orderNumber) {
  return read(ORDERS_KEY, []).find((o) => o.orderNumber === orderNumber);
}
