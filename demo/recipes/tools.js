/**
 * Copper Pot's imperative WebMCP tools. Each does what the page's own controls do, moves the view so the person
 * sees it happen, and answers with JSON text the model can read.
 */
import { textResult } from '../webmcp.js';
import { checkServings, findRecipe, MAX_SERVINGS, RECIPES, scaleIngredients, searchRecipes } from './recipes.js';

/** @param {import('./recipes.js').Recipe} r */
function recipeSummary(r) {
  return { id: r.id, title: r.title, minutes: r.minutes, servings: r.servings, tags: r.tags, summary: r.summary };
}

/** @param {unknown} recipeId */
function unknownRecipe(recipeId) {
  return textResult(`Error: there is no recipe "${recipeId}". Known ids: ${RECIPES.map((r) => r.id).join(', ')}.`, true);
}

/**
 * Tools that exist on every view.
 * @param {{ navigate: (hash: string) => void, servingsShown: (recipeId: string) => number | undefined }} app
 */
export function siteTools(app) {
  return [
    {
      name: 'search_recipes',
      title: 'Search recipes',
      description:
        'Search Copper Pot\'s recipes by dish, ingredient, meal or diet (for example "soup", "eggs" or "vegan"). Returns matching recipes with their id, time and servings. Use an empty query to list them all.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words to look for in recipe titles, ingredients and tags.' },
          maxResults: { type: 'integer', minimum: 1, maximum: 20, description: 'At most this many recipes (default 6).' },
        },
        required: ['query'],
      },
      annotations: { readOnlyHint: true },
      execute: ({ query, maxResults }) => {
        const results = searchRecipes(query, maxResults ?? 6);
        app.navigate(`#/search?q=${encodeURIComponent(query ?? '')}`);
        return textResult({
          message: results.length
            ? `Found ${results.length} recipe(s) for "${query}".`
            : `No recipes match "${query}". Try other words, or an empty query to list them all.`,
          results: results.map(recipeSummary),
        });
      },
    },
    {
      name: 'open_recipe',
      title: 'Open a recipe',
      description:
        "Open a recipe's page by its id (from search_recipes): its ingredients and method. It makes scale_recipe available for that recipe.",
      inputSchema: {
        type: 'object',
        properties: {
          recipeId: { type: 'string', enum: RECIPES.map((r) => r.id), description: 'The recipe id, for example "shakshuka".' },
        },
        required: ['recipeId'],
      },
      annotations: { readOnlyHint: true },
      execute: ({ recipeId }) => {
        const recipe = findRecipe(recipeId);
        if (!recipe) return unknownRecipe(recipeId);
        app.navigate(`#/recipe/${recipe.id}`);
        return textResult({ message: `Opened ${recipe.title}. scale_recipe now changes its servings.`, recipe: recipeSummary(recipe) });
      },
    },
    {
      name: 'get_ingredients',
      title: "Read a recipe's ingredients",
      description:
        "The ingredients of a recipe with their quantities, for a number of servings (default: the servings shown on the recipe's page, else the recipe's own).",
      inputSchema: {
        type: 'object',
        properties: {
          recipeId: { type: 'string', enum: RECIPES.map((r) => r.id), description: 'The recipe id, for example "lentil-soup".' },
          servings: { type: 'integer', minimum: 1, maximum: MAX_SERVINGS, description: 'How many people to cook for.' },
        },
        required: ['recipeId'],
      },
      annotations: { readOnlyHint: true },
      execute: ({ recipeId, servings }) => {
        const recipe = findRecipe(recipeId);
        if (!recipe) return unknownRecipe(recipeId);
        const count = servings === undefined ? (app.servingsShown(recipe.id) ?? recipe.servings) : checkServings(servings);
        return textResult({
          message: `${recipe.title} for ${count}: ${recipe.ingredients.length} ingredients.`,
          recipeId: recipe.id,
          servings: count,
          ingredients: scaleIngredients(recipe, count),
        });
      },
    },
  ];
}

/**
 * The tool that only exists on a recipe's page: it scales that recipe, as the page's servings control does.
 * @param {import('./recipes.js').Recipe} recipe
 * @param {{ navigate: (hash: string) => void }} app
 */
export function recipeTools(recipe, app) {
  return [
    {
      name: 'scale_recipe',
      title: `Scale ${recipe.title}`,
      description: `Change how many servings the open recipe (${recipe.title}, for ${recipe.servings} as written) shows; the ingredient quantities on the page scale with it.`,
      inputSchema: {
        type: 'object',
        properties: {
          servings: { type: 'integer', minimum: 1, maximum: MAX_SERVINGS, description: 'How many people to cook for.' },
        },
        required: ['servings'],
      },
      execute: ({ servings }) => {
        const count = checkServings(servings);
        app.navigate(`#/recipe/${recipe.id}?servings=${count}`);
        return textResult({
          message: `${recipe.title} now shows quantities for ${count}.`,
          servings: count,
          ingredients: scaleIngredients(recipe, count),
        });
      },
    },
  ];
}
