/**
 * @swc/core as dependency-cruiser 17 sees it, with JSX on for `.tsx` files.
 *
 * dependency-cruiser reads TypeScript with the `typescript` package's JS API, which TypeScript 7 no longer has, or
 * with swc; but it parses every file with swc's TypeScript syntax without `tsx`, so a `.tsx` file fails to parse.
 * This wrapper turns `tsx` on for those files only (in a `.ts` file `<T>x` is a cast, not JSX) and passes every
 * other call through. `swc-tsx-hooks.mjs` hands it to dependency-cruiser in place of @swc/core.
 */
import swc from '@swc/core';

/** `options` with `tsx` set when `fileName` is a `.tsx` file. */
function withTsx(fileName, options) {
  return typeof fileName === 'string' && fileName.endsWith('.tsx') ? { ...options, tsx: true } : options;
}

export default {
  ...swc,
  parseFileSync: (fileName, options) => swc.parseFileSync(fileName, withTsx(fileName, options)),
};
