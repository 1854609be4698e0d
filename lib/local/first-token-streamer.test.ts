import { describe, expect, it } from 'vitest';
import { FirstTokenStreamer } from './first-token-streamer';

describe('FirstTokenStreamer', () => {
  it('ignores the prompt (the first put) and calls back for every new token after it', () => {
    let calls = 0;
    const streamer = new FirstTokenStreamer(() => calls++);
    streamer.put();
    expect(calls).toBe(0);
    streamer.put();
    streamer.put();
    expect(calls).toBe(2);
    streamer.end();
  });
});
