/**
 * A reply's tokens without the end-of-sequence tokens it ends with (the model's config may name one id or several).
 *
 * @param tokens The generated tokens.
 * @param eos The model's end-of-sequence id or ids (eosTokenId), if it names any.
 */
export function stripTrailingEos(tokens: readonly bigint[], eos: number | number[] | null | undefined): bigint[] {
  const eosIds = new Set((Array.isArray(eos) ? eos : eos === undefined || eos === null ? [] : [eos]).map(Number));
  let end = tokens.length;
  while (end > 0 && eosIds.has(Number(tokens[end - 1]))) end--;
  return tokens.slice(0, end);
}
