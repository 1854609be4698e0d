/**
 * Fern & Field, the demo shop: a single-page app (hash routes) that works by hand and exposes the same
 * actions as WebMCP tools. The site tools are registered once; add_to_cart is registered while a
 * product's page is shown and unregistered when the view changes.
 */
import { addToCart, findOrder, getCart, MAX_QUANTITY, onCartChange, removeFromCart, SHIPPING_OPTIONS, checkOut } from './cart.js';
import { findProduct, formatPrice, PRODUCTS, searchProducts } from './catalog.js';
import { productTools, siteTools } from './tools.js';
import { createPageTools, currentRoute, escapeHtml } from './single-page.js';
import { whenModelContext } from './webmcp.js';

const ICONS = {
  shirt: '<path d="M22 14l10-6h12l10 6 8 12-9 5-4-5v30H27V26l-4 5-9-5z"/><path d="M32 8c2 4 10 4 12 0" fill="none"/>',
  jacket: '<path d="M24 10l8-3h12l8 3 10 14-8 5-3-4v31H25V25l-3 4-8-5z"/><path d="M38 10v46M32 7l6 8 6-8" fill="none"/>',
  sock: '<path d="M30 8h16v26l-4 14c-2 7-10 10-17 7l-9-4c-5-2-6-8-2-11l16-10z"/><path d="M30 16h16" fill="none"/>',
  mug: '<path d="M16 18h32v28a8 8 0 0 1-8 8H24a8 8 0 0 1-8-8z"/><path d="M48 24h4a7 7 0 0 1 0 14h-4" fill="none"/>',
  bottle: '<path d="M32 6h12v6l4 6v36a4 4 0 0 1-4 4H32a4 4 0 0 1-4-4V18l4-6z"/><path d="M28 28h20" fill="none"/>',
  backpack: '<path d="M22 20a16 16 0 0 1 32 0v32a6 6 0 0 1-6 6H28a6 6 0 0 1-6-6z"/><path d="M28 38h20v12H28zM32 12V8h12v4" fill="none"/>',
  tote: '<path d="M14 24h48l-4 34H18z"/><path d="M28 24v-6a10 10 0 0 1 20 0v6" fill="none"/>',
};

const main = document.getElementById('main');
const statusLine = document.getElementById('webmcp-status');

// Declarative forms came with document.modelContext; the older navigator.modelContext had none.
const pageTools = createPageTools(statusLine, () => (document.modelContext ? ['subscribe_newsletter'] : []));

function illustration(product, size = 'card') {
  return `<div class="art art-${size}" style="--tile:${product.color}">
    <svg viewBox="0 0 76 64" aria-hidden="true">${ICONS[product.icon] ?? ''}</svg>
  </div>`;
}

function productCard(product) {
  return `<li class="card">
    <a href="#/product/${product.id}">
      ${illustration(product)}
      <span class="card-body">
        <span class="card-name">${escapeHtml(product.name)}</span>
        <span class="card-summary">${escapeHtml(product.summary)}</span>
        <span class="price">${formatPrice(product.price)}</span>
      </span>
    </a>
  </li>`;
}

function grid(products) {
  return `<ul class="grid" aria-label="Products">${products.map(productCard).join('')}</ul>`;
}

/** Moves the view; the hashchange listener renders it. Rendering now keeps tools and view in step. */
function navigate(hash) {
  if (location.hash !== hash) history.pushState(null, '', hash);
  render();
}

function renderHome() {
  return `<section class="hero">
      <h1 tabindex="-1">Good gear for slow travel</h1>
      <p>Linen and merino for warm days, a shell for the wet ones, and a mug for when you are home again.
      Ask an agent to find, choose and buy: every button here is also a WebMCP tool.</p>
    </section>
    <h2 class="section-title">All products</h2>
    ${grid(PRODUCTS)}`;
}

function renderSearch(query) {
  const results = searchProducts(query);
  document.getElementById('search-input').value = query;
  return `<h1 tabindex="-1">${query ? `Results for “${escapeHtml(query)}”` : 'All products'}</h1>
    <p class="muted" id="result-count">${results.length} product${results.length === 1 ? '' : 's'}</p>
    ${results.length ? grid(results) : '<p class="empty">Nothing matches. Try “jacket”, “wool” or “bag”.</p>'}`;
}

function renderProduct(product) {
  if (!product) {
    return `<h1 tabindex="-1">Product not found</h1><p><a href="#/">Back to all products</a></p>`;
  }
  const sizes = product.sizes.length
    ? `<fieldset class="sizes"><legend>Size</legend>${product.sizes
        .map(
          (s, i) =>
            `<label><input type="radio" name="size" value="${s}" ${i === 1 || product.sizes.length === 1 ? 'checked' : ''}><span>${s}</span></label>`,
        )
        .join('')}</fieldset>`
    : '';
  return `<nav class="crumbs" aria-label="Breadcrumb"><a href="#/">All products</a> / ${escapeHtml(product.category)}</nav>
    <article class="product" data-product="${product.id}">
      ${illustration(product, 'large')}
      <div class="product-info">
        <h1 tabindex="-1">${escapeHtml(product.name)}</h1>
        <p class="price big">${formatPrice(product.price)}</p>
        <p>${escapeHtml(product.details)}</p>
        <form id="add-form" class="add-form">
          ${sizes}
          <label class="qty">Quantity <input type="number" name="quantity" min="1" max="${MAX_QUANTITY}" value="1"></label>
          <button type="submit" class="primary">Add to cart</button>
          <p class="added" id="add-result" role="status"></p>
        </form>
      </div>
    </article>`;
}

function renderCart() {
  const cart = getCart();
  if (cart.lines.length === 0) {
    return `<h1 tabindex="-1">Your cart</h1><p class="empty">Your cart is empty. <a href="#/">Find something you like.</a></p>`;
  }
  const rows = cart.lines
    .map(
      (l) => `<tr>
        <th scope="row"><a href="#/product/${l.productId}">${escapeHtml(l.name)}</a>${l.size ? `<span class="muted"> · ${l.size}</span>` : ''}</th>
        <td>${l.quantity}</td>
        <td>${formatPrice(l.lineTotal)}</td>
        <td><button type="button" class="link" data-remove="${l.productId}" data-size="${l.size ?? ''}" aria-label="Remove ${escapeHtml(l.name)}${l.size ? ` (${l.size})` : ''}">Remove</button></td>
      </tr>`,
    )
    .join('');
  return `<h1 tabindex="-1">Your cart</h1>
    <table class="cart" id="cart-table">
      <thead><tr><th scope="col">Product</th><th scope="col">Qty</th><th scope="col">Total</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>${rows}</tbody>
      <tfoot><tr><th scope="row">Subtotal</th><td>${cart.itemCount}</td><td id="cart-subtotal">${formatPrice(cart.subtotal)}</td><td></td></tr></tfoot>
    </table>
    <form id="checkout-form" class="checkout">
      <h2>Check out</h2>
      <label>Name <input name="name" required autocomplete="name"></label>
      <label>Email <input name="email" type="email" required autocomplete="email"></label>
      <label>Shipping
        <select name="shipping">${SHIPPING_OPTIONS.map((s) => `<option>${s}</option>`).join('')}</select>
      </label>
      <button type="submit" class="primary">Place order</button>
      <p class="error" id="checkout-error" role="alert"></p>
    </form>`;
}

function renderOrder(orderNumber) {
  const order = findOrder(orderNumber);
  if (!order) return `<h1 tabindex="-1">Order not found</h1><p><a href="#/">Back to the shop</a></p>`;
  return `<section class="confirmation">
      <h1 tabindex="-1">Thank you, ${escapeHtml(order.name)}!</h1>
      <p>Order <strong id="order-number">${order.orderNumber}</strong> is placed: ${order.lines.length} line${order.lines.length === 1 ? '' : 's'},
      ${order.shipping.toLowerCase()} shipping, total <strong>${formatPrice(order.total)}</strong>.
      A confirmation is on its way to ${escapeHtml(order.email)}.</p>
      <p><a href="#/">Keep shopping</a></p>
    </section>`;
}

/** The hash on screen: links fire both popstate and hashchange, and one render is enough. */
let renderedHash = null;

function render() {
  renderedHash = location.hash;
  const route = currentRoute();
  const product = route.name === 'product' ? findProduct(route.id) : undefined;
  const views = {
    home: renderHome,
    search: () => renderSearch(route.params.get('q') ?? ''),
    product: () => renderProduct(product),
    cart: renderCart,
    order: () => renderOrder(route.id),
  };
  if (route.name !== 'search') document.getElementById('search-input').value = '';
  main.innerHTML = (views[route.name] ?? renderHome)();
  document.title = `${main.querySelector('h1')?.textContent ?? 'Shop'} — Fern & Field`;
  // Only take focus when the person is here: an agent driving the page from a side panel keeps its focus.
  if (document.hasFocus() && route.name !== 'home') main.querySelector('h1')?.focus({ preventScroll: true });
  pageTools.swapViewTools(product ? productTools(product) : []);
}

function updateCartCount() {
  document.getElementById('cart-count').textContent = String(getCart().itemCount);
}

function flash(element, text) {
  element.textContent = text;
  element.classList.remove('pop');
  void element.offsetWidth;
  element.classList.add('pop');
}

// By hand: the same actions the tools perform.
document.getElementById('search-form').addEventListener('submit', (event) => {
  event.preventDefault();
  navigate(`#/search?q=${encodeURIComponent(new FormData(event.currentTarget).get('q') ?? '')}`);
});

main.addEventListener('submit', (event) => {
  const form = event.target;
  if (form.id === 'add-form') {
    event.preventDefault();
    const data = new FormData(form);
    const result = form.querySelector('#add-result');
    try {
      const added = addToCart(form.closest('[data-product]').dataset.product, data.get('size'), Number(data.get('quantity')));
      flash(result, `Added ${added.quantity} × ${added.product.name}${added.size ? ` (${added.size})` : ''} to your cart.`);
    } catch (error) {
      flash(result, error.message);
    }
  }
  if (form.id === 'checkout-form') {
    event.preventDefault();
    const data = new FormData(form);
    try {
      const order = checkOut({ name: data.get('name'), email: data.get('email'), shipping: data.get('shipping') });
      navigate(`#/order/${order.orderNumber}`);
    } catch (error) {
      form.querySelector('#checkout-error').textContent = error.message;
    }
  }
});

main.addEventListener('click', (event) => {
  const button = event.target.closest('[data-remove]');
  if (!button) return;
  removeFromCart(button.dataset.remove, button.dataset.size);
  render();
});

// The declarative tool: the same handler answers the person and, through respondWith, the agent.
document.getElementById('newsletter').addEventListener('submit', (event) => {
  event.preventDefault();
  const data = new FormData(event.currentTarget);
  const email = String(data.get('email') ?? '').trim();
  const frequency = String(data.get('frequency') ?? 'Weekly');
  const message = `Subscribed ${email} to the ${frequency.toLowerCase()} newsletter.`;
  document.getElementById('newsletter-result').textContent = message;
  if (event.agentInvoked && typeof event.respondWith === 'function') {
    event.respondWith(Promise.resolve(JSON.stringify({ message, email, frequency })));
  }
});

const renderIfMoved = () => {
  if (location.hash !== renderedHash) render();
};
window.addEventListener('popstate', renderIfMoved);
window.addEventListener('hashchange', renderIfMoved);
onCartChange(updateCartCount);
updateCartCount();
render();

whenModelContext().then(async (mc) => {
  if (!mc) {
    statusLine.dataset.state = 'absent';
    statusLine.textContent =
      'No WebMCP here: the shop works by hand. Install the WebMCP Agent extension, or start Chromium with --enable-features=WebMCP.';
    return;
  }
  await pageTools.start(mc, siteTools({ navigate }));
  const product = currentRoute().name === 'product' ? findProduct(currentRoute().id) : undefined;
  pageTools.swapViewTools(product ? productTools(product) : []);
});
