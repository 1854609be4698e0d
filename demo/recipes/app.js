/**
 * Copper Pot, the demo recipe site: a single-page app (hash routes) on its own origin beside the demo shop. It
 * works by hand and exposes the same actions as WebMCP tools. The site tools are registered once; scale_recipe is
 * registered while a recipe's page is shown and unregistered when the view changes.
 */
import { createPageTools, currentRoute, escapeHtml } from '../single-page.js';
import { whenModelContext } from '../webmcp.js';
import { checkServings, findRecipe, formatIngredient, RECIPES, scaleIngredients, searchRecipes } from './recipes.js';
import { recipeTools, siteTools } from './tools.js';

const main = document.getElementById('main');
const statusLine = document.getElementById('webmcp-status');

const pageTools = createPageTools(statusLine);

function recipeCard(recipe) {
  return `<li class="card">
    <a href="#/recipe/${recipe.id}">
      <div class="art art-card" style="--tile:${recipe.color}"></div>
      <span class="card-body">
        <span class="card-name">${escapeHtml(recipe.title)}</span>
        <span class="card-summary">${escapeHtml(recipe.summary)}</span>
        <span class="meta">${recipe.minutes} min · serves ${recipe.servings}</span>
      </span>
    </a>
  </li>`;
}

function grid(recipes) {
  return `<ul class="grid" aria-label="Recipes">${recipes.map(recipeCard).join('')}</ul>`;
}

/** The servings the recipe's page shows, when that recipe is open. */
function servingsShown(recipeId) {
  const route = currentRoute();
  if (route.name !== 'recipe' || route.id !== recipeId) return undefined;
  const recipe = findRecipe(recipeId);
  try {
    return route.params.has('servings') ? checkServings(route.params.get('servings')) : recipe?.servings;
  } catch {
    return recipe?.servings;
  }
}

function navigate(hash) {
  if (location.hash !== hash) history.pushState(null, '', hash);
  render();
}

function renderHome() {
  return `<section class="hero">
      <h1 tabindex="-1">Cook something good tonight</h1>
      <p>Simple recipes that scale to the people at your table. Ask an agent to find one, read its ingredients or
      scale it: every control here is also a WebMCP tool.</p>
    </section>
    <h2 class="section-title">All recipes</h2>
    ${grid(RECIPES)}`;
}

function renderSearch(query) {
  document.getElementById('search-input').value = query;
  const results = searchRecipes(query);
  return `<h1 tabindex="-1">Recipes for “${escapeHtml(query)}”</h1>
    ${results.length ? grid(results) : '<p class="empty">No recipes match. Try other words.</p>'}`;
}

function renderRecipe(recipe) {
  if (!recipe) return '<h1 tabindex="-1">Recipe not found</h1><p><a href="#/">All recipes</a></p>';
  const servings = servingsShown(recipe.id) ?? recipe.servings;
  return `<p class="crumbs"><a href="#/">Recipes</a> / ${escapeHtml(recipe.title)}</p>
    <article class="recipe" data-recipe="${recipe.id}">
      <div class="art art-large" style="--tile:${recipe.color}"></div>
      <div>
        <h1 tabindex="-1">${escapeHtml(recipe.title)}</h1>
        <p>${escapeHtml(recipe.summary)}</p>
        <p class="meta">${recipe.minutes} minutes · ${recipe.tags.map(escapeHtml).join(', ')}</p>
        <form class="servings" id="servings-form">
          <label>Servings <input type="number" name="servings" id="servings-input" min="1" max="24" value="${servings}"></label>
          <button type="submit">Scale</button>
        </form>
        <h2>Ingredients</h2>
        <ul class="ingredients" id="ingredients">${scaleIngredients(recipe, servings)
          .map((i) => `<li>${escapeHtml(formatIngredient(i))}</li>`)
          .join('')}</ul>
        <h2>Method</h2>
        <ol class="steps">${recipe.steps.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ol>
      </div>
    </article>`;
}

let renderedHash = null;

function render() {
  renderedHash = location.hash;
  const route = currentRoute();
  const recipe = route.name === 'recipe' ? findRecipe(route.id) : undefined;
  const views = {
    home: renderHome,
    search: () => renderSearch(route.params.get('q') ?? ''),
    recipe: () => renderRecipe(recipe),
  };
  if (route.name !== 'search') document.getElementById('search-input').value = '';
  main.innerHTML = (views[route.name] ?? renderHome)();
  document.title = `${main.querySelector('h1')?.textContent ?? 'Recipes'} — Copper Pot`;
  if (document.hasFocus() && route.name !== 'home') main.querySelector('h1')?.focus({ preventScroll: true });
  pageTools.swapViewTools(recipe ? recipeTools(recipe, { navigate }) : []);
}

// By hand: the same actions the tools perform.
document.getElementById('search-form').addEventListener('submit', (event) => {
  event.preventDefault();
  navigate(`#/search?q=${encodeURIComponent(new FormData(event.currentTarget).get('q') ?? '')}`);
});

main.addEventListener('submit', (event) => {
  if (event.target.id !== 'servings-form') return;
  event.preventDefault();
  const recipeId = event.target.closest('[data-recipe]').dataset.recipe;
  try {
    navigate(`#/recipe/${recipeId}?servings=${checkServings(new FormData(event.target).get('servings'))}`);
  } catch (error) {
    event.target.querySelector('input').setCustomValidity(error.message);
    event.target.reportValidity();
  }
});

const renderIfMoved = () => {
  if (location.hash !== renderedHash) render();
};
window.addEventListener('popstate', renderIfMoved);
window.addEventListener('hashchange', renderIfMoved);
render();

whenModelContext().then(async (mc) => {
  if (!mc) {
    statusLine.dataset.state = 'absent';
    statusLine.textContent =
      'No WebMCP here: the recipes work by hand. Install the WebMCP Agent extension, or start Chromium with --enable-features=WebMCP.';
    return;
  }
  await pageTools.start(mc, siteTools({ navigate, servingsShown }));
  const route = currentRoute();
  const recipe = route.name === 'recipe' ? findRecipe(route.id) : undefined;
  pageTools.swapViewTools(recipe ? recipeTools(recipe, { navigate }) : []);
});
