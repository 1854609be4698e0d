import { decideKvReuse } from './decide-kv-reuse';
import { cacheTensors, DynamicCache, readBackTensor } from './transformers-runtime';

/** What one generation leaves for the next: every token fed to the model, and the KV cache over them. */
export interface KvPrefixCache {
  /** The cache to start a prompt from, taken out of the holder, and how many of the prompt's tokens it covers. */
  take: (promptIds: readonly bigint[]) => Promise<{ past: DynamicCache | undefined; reusedTokens: number }>;
  /** Keep what a generation left (the tokens fed, the cache over them) for the next one. */
  keep: (tokens: bigint[], past: DynamicCache) => void;
  /** Free the kept cache (its tensors may sit in GPU memory). */
  drop: () => Promise<void>;
}

/**
 * The KV cache of one generation, held for the next: reused only when the new prompt extends the cached tokens
 * exactly, or cut back to the prefix they share when the cache allows it.
 */
export function createKvPrefixCache(): KvPrefixCache {
  let kv: { tokens: bigint[]; past: DynamicCache } | undefined;

  const dropKv = async () => {
    const old = kv;
    kv = undefined;
    await old?.past.dispose();
  };

  return {
    take: async (promptIds) => {
      let past: DynamicCache | undefined;
      let reusedTokens = 0;
      if (kv) {
        const held = kv;
        const reuse = decideKvReuse(held.tokens, promptIds, () => canTruncate(held.past));
        if (reuse.take === 'whole') {
          past = held.past;
          reusedTokens = reuse.tokens;
          kv = undefined;
        } else if (reuse.take === 'prefix') {
          past = await truncateCache(held.past, reuse.tokens);
          reusedTokens = reuse.tokens;
          await dropKv();
        } else {
          await dropKv();
        }
      }
      return { past, reusedTokens };
    },
    keep: (tokens, past) => {
      kv = { tokens, past };
    },
    drop: dropKv,
  };
}

/**
 * A cache can be cut back to a prefix when it holds only attention keys and values ([batch, heads, seq, dim]):
 * recurrent or convolution states (LFM2/3, Qwen3.5) summarise the whole sequence and cannot be. GPU tensors count
 * too: they are read back (much cheaper than prefilling the prefix again: a readback moves bytes, a prefill runs
 * every layer over every token).
 */
function canTruncate(cache: DynamicCache): boolean {
  return Object.entries(cacheTensors(cache)).every(
    ([name, t]) =>
      name.startsWith('past_key_values.') &&
      (t.location === 'cpu' || t.location === undefined || t.location === 'gpu-buffer') &&
      t.dims.length === 4,
  );
}

/** Bytes a cache's tensors hold, from their shapes (a GPU tensor's data cannot be read without copying it). */
export function cacheBytes(cache: DynamicCache): number {
  const width: Record<string, number> = { float32: 4, float16: 2, bfloat16: 2, int8: 1, uint8: 1 };
  return Object.values(cacheTensors(cache)).reduce(
    (sum, t) => sum + (t?.dims ? t.dims.reduce((a, b) => a * b, 1) * (width[t.type] ?? 4) : 0),
    0,
  );
}

/** A new cache (in CPU memory; the session uploads it) holding the first `length` positions of `cache`. */
async function truncateCache(cache: DynamicCache, length: number): Promise<DynamicCache> {
  const entries = await Promise.all(
    Object.entries(cacheTensors(cache)).map(async ([name, t]) => {
      let cpu = t;
      if (t.location === 'gpu-buffer') cpu = await readBackTensor(t);
      return [name, cpu.slice(null, null, [0, length], null)] as const;
    }),
  );
  return new DynamicCache(Object.fromEntries(entries));
}
