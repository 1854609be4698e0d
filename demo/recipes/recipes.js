/**
 * Copper Pot's recipes and their search: plain data that the views and the WebMCP tools both read.
 * Quantities are for the recipe's own `servings`; scaleIngredients gives them for any other number.
 */

/**
 * @typedef {object} Ingredient
 * @property {string} name
 * @property {number} [quantity]  Absent for "to taste" ingredients.
 * @property {string} [unit]      g, ml, tbsp, tsp, or absent for a count ("3 eggs").
 */

/**
 * @typedef {object} Recipe
 * @property {string} id          Stable id, used in URLs and by the tools.
 * @property {string} title
 * @property {string} summary     One line, shown in lists.
 * @property {number} minutes     Total time.
 * @property {number} servings    What the quantities below make.
 * @property {string[]} tags      Extra words search matches on (diet, meal, cuisine).
 * @property {string} color       Tile colour.
 * @property {Ingredient[]} ingredients
 * @property {string[]} steps
 */

/** @type {Recipe[]} */
export const RECIPES = [
  {
    id: 'shakshuka',
    title: 'Shakshuka',
    summary: 'Eggs poached in a smoky pepper and tomato sauce.',
    minutes: 30,
    servings: 2,
    tags: ['vegetarian', 'breakfast', 'brunch', 'eggs', 'one-pan'],
    color: '#e7b7a3',
    ingredients: [
      { name: 'olive oil', quantity: 2, unit: 'tbsp' },
      { name: 'onion', quantity: 1 },
      { name: 'red pepper', quantity: 1 },
      { name: 'garlic cloves', quantity: 2 },
      { name: 'smoked paprika', quantity: 1, unit: 'tsp' },
      { name: 'chopped tomatoes', quantity: 400, unit: 'g' },
      { name: 'eggs', quantity: 4 },
      { name: 'feta', quantity: 50, unit: 'g' },
      { name: 'salt and pepper' },
    ],
    steps: [
      'Soften the onion and pepper in the oil for 8 minutes.',
      'Add garlic and paprika, then the tomatoes; simmer 10 minutes.',
      'Make four hollows, crack in the eggs, cover and cook until the whites set.',
      'Crumble over the feta and serve from the pan.',
    ],
  },
  {
    id: 'buttermilk-pancakes',
    title: 'Buttermilk Pancakes',
    summary: 'Thick, fluffy pancakes for a slow weekend.',
    minutes: 25,
    servings: 4,
    tags: ['vegetarian', 'breakfast', 'sweet'],
    color: '#f1d9a6',
    ingredients: [
      { name: 'plain flour', quantity: 200, unit: 'g' },
      { name: 'baking powder', quantity: 2, unit: 'tsp' },
      { name: 'sugar', quantity: 1, unit: 'tbsp' },
      { name: 'buttermilk', quantity: 300, unit: 'ml' },
      { name: 'eggs', quantity: 2 },
      { name: 'butter', quantity: 30, unit: 'g' },
      { name: 'maple syrup' },
    ],
    steps: [
      'Whisk the flour, baking powder and sugar.',
      'Beat in the buttermilk, eggs and melted butter until just combined.',
      'Cook ladlefuls on a hot buttered pan, turning when bubbles appear.',
    ],
  },
  {
    id: 'lentil-soup',
    title: 'Red Lentil Soup',
    summary: 'A warming, lemony soup from the store cupboard.',
    minutes: 35,
    servings: 4,
    tags: ['vegan', 'vegetarian', 'soup', 'lunch', 'gluten-free'],
    color: '#e9c08b',
    ingredients: [
      { name: 'red lentils', quantity: 250, unit: 'g' },
      { name: 'onion', quantity: 1 },
      { name: 'carrots', quantity: 2 },
      { name: 'ground cumin', quantity: 2, unit: 'tsp' },
      { name: 'vegetable stock', quantity: 1200, unit: 'ml' },
      { name: 'lemon', quantity: 1 },
      { name: 'olive oil', quantity: 2, unit: 'tbsp' },
    ],
    steps: [
      'Fry the onion and carrots in the oil until soft.',
      'Stir in the cumin, then the lentils and stock; simmer 20 minutes.',
      'Blend until smooth and finish with lemon juice.',
    ],
  },
  {
    id: 'mushroom-risotto',
    title: 'Mushroom Risotto',
    summary: 'Creamy rice with chestnut mushrooms and parmesan.',
    minutes: 45,
    servings: 4,
    tags: ['vegetarian', 'dinner', 'italian', 'rice'],
    color: '#cdbfa8',
    ingredients: [
      { name: 'arborio rice', quantity: 300, unit: 'g' },
      { name: 'chestnut mushrooms', quantity: 250, unit: 'g' },
      { name: 'shallots', quantity: 2 },
      { name: 'white wine', quantity: 125, unit: 'ml' },
      { name: 'vegetable stock', quantity: 1000, unit: 'ml' },
      { name: 'parmesan', quantity: 60, unit: 'g' },
      { name: 'butter', quantity: 40, unit: 'g' },
    ],
    steps: [
      'Fry the mushrooms in half the butter and set aside.',
      'Soften the shallots, add the rice and toast for a minute; add the wine.',
      'Add the hot stock a ladle at a time, stirring, for about 20 minutes.',
      'Stir in the mushrooms, parmesan and the rest of the butter.',
    ],
  },
  {
    id: 'chicken-traybake',
    title: 'Lemon Chicken Traybake',
    summary: 'Chicken thighs, potatoes and olives roasted in one tin.',
    minutes: 60,
    servings: 4,
    tags: ['dinner', 'one-pan', 'gluten-free'],
    color: '#d9d18c',
    ingredients: [
      { name: 'chicken thighs', quantity: 8 },
      { name: 'new potatoes', quantity: 750, unit: 'g' },
      { name: 'lemon', quantity: 1 },
      { name: 'garlic cloves', quantity: 4 },
      { name: 'green olives', quantity: 100, unit: 'g' },
      { name: 'olive oil', quantity: 3, unit: 'tbsp' },
      { name: 'fresh thyme' },
    ],
    steps: [
      'Heat the oven to 200 °C.',
      'Toss everything in a roasting tin with the oil and the lemon, cut in wedges.',
      'Roast for 45 minutes until the chicken skin is crisp.',
    ],
  },
  {
    id: 'chocolate-mug-cake',
    title: 'Chocolate Mug Cake',
    summary: 'A one-person chocolate cake in a mug, in two minutes.',
    minutes: 5,
    servings: 1,
    tags: ['vegetarian', 'dessert', 'sweet', 'quick'],
    color: '#b98b73',
    ingredients: [
      { name: 'self-raising flour', quantity: 4, unit: 'tbsp' },
      { name: 'cocoa powder', quantity: 2, unit: 'tbsp' },
      { name: 'sugar', quantity: 3, unit: 'tbsp' },
      { name: 'milk', quantity: 3, unit: 'tbsp' },
      { name: 'vegetable oil', quantity: 2, unit: 'tbsp' },
      { name: 'egg', quantity: 1 },
    ],
    steps: ['Mix everything in a large mug with a fork.', 'Microwave for 90 seconds and eat warm.'],
  },
];

/** Most servings the tools and the page accept. */
export const MAX_SERVINGS = 24;

/** @param {string} id */
export function findRecipe(id) {
  return RECIPES.find((r) => r.id === id);
}

/**
 * Recipes matching every word of `query` in their title, summary, tags or ingredients, title matches first.
 * @param {string} query
 * @param {number} [limit]
 * @returns {Recipe[]}
 */
export function searchRecipes(query, limit = RECIPES.length) {
  const words = String(query ?? '')
    .toLowerCase()
    .split(/[^a-z0-9-]+/)
    .filter(Boolean);
  if (words.length === 0) return RECIPES.slice(0, limit);
  const scored = [];
  for (const recipe of RECIPES) {
    const title = recipe.title.toLowerCase().split(/[^a-z0-9-]+/);
    const rest = [recipe.summary, ...recipe.tags, ...recipe.ingredients.map((i) => i.name)]
      .join(' ')
      .toLowerCase()
      .split(/[^a-z0-9-]+/);
    let score = 0;
    let all = true;
    for (const word of words) {
      const stem = word.length > 3 ? word.replace(/e?s$/, '') : word;
      if (title.some((w) => w.startsWith(stem))) score += 2;
      else if (rest.some((w) => w.startsWith(stem))) score += 1;
      else all = false;
    }
    if (all) scored.push({ recipe, score });
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((s) => s.recipe);
}

/** Rounds a scaled quantity the way a cook would read it: whole grams and millilitres, quarters of spoons and counts. */
function roundQuantity(value, unit) {
  if (unit === 'g' || unit === 'ml') return Math.max(1, Math.round(value));
  return Math.max(0.25, Math.round(value * 4) / 4);
}

/**
 * The recipe's ingredients for `servings`.
 * @param {Recipe} recipe
 * @param {number} servings
 * @returns {Ingredient[]}
 */
export function scaleIngredients(recipe, servings) {
  const factor = servings / recipe.servings;
  return recipe.ingredients.map((i) =>
    i.quantity === undefined ? { ...i } : { ...i, quantity: roundQuantity(i.quantity * factor, i.unit) },
  );
}

/** "200 g plain flour", "2 eggs", "salt and pepper". @param {Ingredient} ingredient */
export function formatIngredient(ingredient) {
  if (ingredient.quantity === undefined) return ingredient.name;
  return `${ingredient.quantity}${ingredient.unit ? ` ${ingredient.unit}` : ''} ${ingredient.name}`;
}

/**
 * A whole number of servings from 1 to MAX_SERVINGS, or an Error saying what is wrong.
 * @param {unknown} value
 */
export function checkServings(value) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_SERVINGS) {
    throw new Error(`Servings must be a whole number from 1 to ${MAX_SERVINGS}, not ${JSON.stringify(value)}.`);
  }
  return n;
}
