/**
 * The demo sites as recall sites (bench/ranker-corpus/corpus.ts): each is the site's tools as its page gives them
 * and its webmcp-evals file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolDescriptor } from '../lib/agent/types';
import type { RecallSite } from '../lib/evals/measure-tool-recall';
import { parseEvalFile } from '../lib/evals/parse-eval-file';
import { recipeTools, siteTools as recipeSiteTools } from '../demo/recipes/tools.js';
import { findRecipe } from '../demo/recipes/recipes.js';
import { productTools, siteTools as shopSiteTools } from '../demo/tools.js';
import { findProduct } from '../demo/catalog.js';

const root = new URL('..', import.meta.url).pathname;

function readCases(file: string): RecallSite['cases'] {
  const parsed = parseEvalFile(readFileSync(join(root, file), 'utf8'));
  if (!parsed.ok) throw new Error(`${file}:\n${parsed.errors.join('\n')}`);
  return parsed.cases;
}

/** What a page's tool gives the agent: no handler. */
function descriptor(tool: ToolDescriptor & { execute?: unknown }): ToolDescriptor {
  const { execute: _, ...rest } = tool;
  return rest;
}

const app = { navigate: () => {}, servingsShown: () => undefined };

/** The demo shop on a product's page: its site tools, add_to_cart, and the declarative newsletter form. */
function demoShop(): RecallSite {
  const product = findProduct('linen-shirt');
  if (!product) throw new Error('the demo shop has no linen-shirt');
  const newsletter: ToolDescriptor = {
    // What the browser builds from the <form toolname> in demo/index.html.
    name: 'subscribe_newsletter',
    description: 'Subscribe an email address to the Fern & Field newsletter (new arrivals and repair tips), weekly or monthly.',
    inputSchema: {
      type: 'object',
      properties: {
        email: { type: 'string', description: 'The email address to subscribe.' },
        frequency: { type: 'string', enum: ['Weekly', 'Monthly'], description: 'How often to send the newsletter: Weekly or Monthly.' },
      },
      required: ['email'],
    },
  };
  return {
    origin: 'http://127.0.0.1:5174',
    tools: [...shopSiteTools(app), ...productTools(product), newsletter].map(descriptor),
    cases: readCases('demo/evals.json'),
  };
}

/** The demo recipe site on a recipe's page: its site tools and scale_recipe. */
function demoRecipes(): RecallSite {
  const recipe = findRecipe('buttermilk-pancakes');
  if (!recipe) throw new Error('the recipe site has no buttermilk-pancakes');
  return {
    origin: 'http://localhost:5174',
    tools: [...recipeSiteTools(app), ...recipeTools(recipe, app)].map(descriptor),
    cases: readCases('demo/recipes/evals.json'),
  };
}

/** The two demo sites, their tools read from their own code so that the figures follow the demos. */
export function demoSites(): [RecallSite, RecallSite] {
  return [demoShop(), demoRecipes()];
}
