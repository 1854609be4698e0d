import { describe, expect, it } from 'vitest';
import { CALL, signal, system, user, useScriptedModelHost } from '../../tests/model/scripted-model-fixture';

const models = useScriptedModelHost();
const { spec, provider } = models;

describe('yieldBeforeEachForward, through a provider’s generation', () => {
  it('stops within one token when the signal aborts', async () => {
    const p = provider(spec());
    await p.prepare(() => {});
    const controller = new AbortController();
    let seen = '';
    const run = p.generate({
      messages: [system, user('please ramble')],
      maxNewTokens: 4000,
      signal: controller.signal,
      onText: (delta) => {
        seen += delta;
        if (!controller.signal.aborted) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    // The streamer flushes at word ends: the abort came with the first word, one byte per token here.
    expect(seen).toBe('and ');
    expect(p.lastGeneration?.newTokens).toBeLessThanOrEqual(seen.length + 1);

    const aborted = new AbortController();
    aborted.abort();
    await expect(p.generate({ messages: [user('hi')], signal: aborted.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    // The engine is free again afterwards.
    expect(await p.generate({ messages: [user('hi')], signal: signal() })).toBe(CALL);
  });
});
