/**
 * How dependency-cruiser resolves the `@/` and `~/` aliases (WXT's, from `.wxt/tsconfig.json`), given to it as a
 * webpack resolve config: its own reading of tsconfig paths needs the `typescript` JS API, which TypeScript 7 lacks.
 */
const { resolve } = require('node:path');

const root = resolve(__dirname, '../..');

module.exports = { resolve: { alias: { '@': root, '~': root } } };
