import type { CausalLM } from './transformers-runtime';

/**
 * Let queued tasks run (a Stop message, a step timeout): onnxruntime-web runs WASM inference synchronously inside
 * its promise, so a whole generation can otherwise finish without the event loop ever seeing the abort. A
 * MessageChannel round-trip is a task without setTimeout's 4 ms clamp.
 */
function yieldToEventLoop(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Longest stretch of inference between two turns of the event loop: the most a Stop can wait, plus one token. */
const YIELD_EVERY_MS = 4;

/**
 * Make forward passes of `model` start with a turn of the event loop whenever YIELD_EVERY_MS passed since the last
 * one, so aborts land within one token on real models (tens of ms per token) without taxing tiny, fast ones.
 */
export function yieldBeforeEachForward(model: CausalLM): void {
  const forward = model.forward.bind(model);
  let last = performance.now();
  Object.defineProperty(model, 'forward', {
    configurable: true,
    value: async (inputs: unknown) => {
      if (performance.now() - last >= YIELD_EVERY_MS) {
        await yieldToEventLoop();
        last = performance.now();
      }
      return forward(inputs);
    },
  });
}
