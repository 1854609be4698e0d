/** What to do with the KV cache one generation left, for the next prompt. */
type KvReuse =
  /** The prompt extends every cached token: hand the whole cache over. */
  | { take: 'whole'; tokens: number }
  /** The prompt shares only the first `tokens` cached tokens: cut the cache back to them. */
  | { take: 'prefix'; tokens: number }
  /** Nothing can be reused: drop the cache. */
  | { take: 'none'; tokens: 0 };

/**
 * Decides how much of a kept KV cache the next prompt may start from. Only cached tokens the prompt repeats exactly
 * count: any other cache would condition the model on tokens it is not shown. At least one prompt token must remain
 * to be fed. A prompt that shares only a prefix (a template re-rendered an earlier turn differently) keeps that part
 * when the cache can be cut.
 *
 * @param cached The tokens the cache covers.
 * @param prompt The new prompt's tokens.
 * @param canCut Whether the cache can be cut back to a prefix (asked only when that would help).
 */
export function decideKvReuse(cached: readonly bigint[], prompt: readonly bigint[], canCut: () => boolean): KvReuse {
  let common = 0;
  const limit = Math.min(cached.length, prompt.length - 1);
  while (common < limit && cached[common] === prompt[common]) common++;
  if (common === cached.length) return { take: 'whole', tokens: common };
  if (common > 0 && canCut()) return { take: 'prefix', tokens: common };
  return { take: 'none', tokens: 0 };
}
