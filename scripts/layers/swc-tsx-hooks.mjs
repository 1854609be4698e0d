/**
 * Runs dependency-cruiser with `swc-tsx.mjs` in place of @swc/core (why: that file). Load it before
 * dependency-cruiser: `node --import ./scripts/layers/swc-tsx-hooks.mjs node_modules/dependency-cruiser/bin/dependency-cruise.mjs …`.
 * On the main thread it registers itself as a module-resolution hook; in the hooks thread it is that hook.
 */
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const WRAPPER = new URL('./swc-tsx.mjs', import.meta.url).href;

if (isMainThread) register(import.meta.url);

/** Only dependency-cruiser's own `import('@swc/core')` gets the wrapper; the wrapper itself gets the real one. */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === '@swc/core' && context.parentURL?.includes('/node_modules/dependency-cruiser/')) {
    return { url: WRAPPER, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
