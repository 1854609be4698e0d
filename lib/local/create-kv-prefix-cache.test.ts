import { describe, expect, it } from 'vitest';
import { afterCall, CALL, signal, system, tools, user, useScriptedModelHost } from '../../tests/model/scripted-model-fixture';
import { cacheBytes, createKvPrefixCache } from './create-kv-prefix-cache';
import { Tensor } from '@huggingface/transformers';
import { cacheTensors, DynamicCache } from './transformers-runtime';

// The KV cache a generation leaves is real only inside transformers.js: tested through the provider's generations.

const models = useScriptedModelHost();
const { spec, provider } = models;

describe('createKvPrefixCache, through a provider’s generations', () => {
  it('answers after a tool result, reusing the KV cache when the prompt extends it exactly', async () => {
    const p = provider(spec());
    await p.prepare(() => {});
    const history = [system, user('find socks')];
    await p.generate({ messages: history, tools, signal: signal() });
    const first = p.lastGeneration;
    const answer = await p.generate({ messages: [...history, ...afterCall], tools, signal: signal() });
    expect(answer).toBe('Found 3 pairs of socks.');
    const second = p.lastGeneration;
    expect(second?.reusedTokens).toBe((first?.promptTokens ?? 0) + (first?.newTokens ?? 0) - 1);
  });

  it('keeps only the prefix a diverging prompt shares with the cache', async () => {
    const p = provider(spec());
    await p.prepare(() => {});
    const answer = await p.generate({ messages: [system, user('find socks'), ...afterCall], tools, signal: signal() });
    expect(answer).toBe('Found 3 pairs of socks.');
    // Same start, but the tool result is gone: had the cache kept it, the model would answer instead of calling.
    const diverged = [system, user('find socks'), afterCall[0], user('never mind, find shoes')];
    expect(await p.generate({ messages: diverged, tools, signal: signal() })).toBe(CALL);
    const stats = p.lastGeneration;
    expect(stats?.reusedTokens).toBeGreaterThan(0);
    expect(stats?.reusedTokens).toBeLessThan(stats?.promptTokens ?? 0);
    // The same prompt again still leaves a token to feed.
    expect(await p.generate({ messages: diverged, tools, signal: signal() })).toBe(CALL);
    expect(p.lastGeneration?.reusedTokens).toBe((stats?.promptTokens ?? 0) - 1);
  });
});

describe('createKvPrefixCache, on caches built by hand', () => {
  // [batch, heads, seq, dim] attention keys and values over `seq` tokens, as a decoder's cache holds them.
  const attention = (seq: number) =>
    new DynamicCache({
      'past_key_values.0.key': new Tensor(
        'float32',
        new Float32Array(seq * 2).map((_, i) => i),
        [1, 1, seq, 2],
      ),
      'past_key_values.0.value': new Tensor('float32', new Float32Array(seq * 2), [1, 1, seq, 2]),
    });
  const ids = (...n: number[]) => n.map(BigInt);

  it('hands the whole cache over when the prompt extends its tokens, and keeps nothing after', async () => {
    const kv = createKvPrefixCache();
    const cache = attention(3);
    kv.keep(ids(1, 2, 3), cache);
    expect(await kv.take(ids(1, 2, 3, 4))).toEqual({ past: cache, reusedTokens: 3 });
    expect(await kv.take(ids(1, 2, 3, 4))).toEqual({ past: undefined, reusedTokens: 0 });
  });

  it('cuts the cache back to the shared prefix, leaving at least one prompt token to feed', async () => {
    const kv = createKvPrefixCache();
    kv.keep(ids(1, 2, 3), attention(3));
    const diverged = await kv.take(ids(1, 2, 9, 9));
    expect(diverged.reusedTokens).toBe(2);
    expect(cacheTensors(diverged.past as DynamicCache)['past_key_values.0.key'].dims).toEqual([1, 1, 2, 2]);
    expect(Array.from(cacheTensors(diverged.past as DynamicCache)['past_key_values.0.key'].data)).toEqual([0, 1, 2, 3]);

    kv.keep(ids(1, 2, 3), attention(3));
    expect((await kv.take(ids(1, 2, 3))).reusedTokens).toBe(2);
  });

  it('starts afresh when the cache holds recurrent state, which cannot be cut', async () => {
    const kv = createKvPrefixCache();
    const recurrent = new DynamicCache({ 'past_conv.0': new Tensor('float32', new Float32Array(6), [1, 3, 2]) });
    kv.keep(ids(1, 2, 3), recurrent);
    expect(await kv.take(ids(1, 2, 9))).toEqual({ past: undefined, reusedTokens: 0 });
  });

  it('counts the bytes a cache holds from its tensors’ shapes', () => {
    expect(cacheBytes(attention(3))).toBe(2 * 3 * 2 * 4);
  });
});
