/**
 * runtime.onMessage cannot run in Node: a bus that does what the browser does with the background's listeners.
 * Every listener hears each message with its attested sender; the first to call `sendResponse` answers, and a
 * message no listener kept (none returned true) is answered with undefined.
 */
import type { RuntimeMessageListener, RuntimeMessageSender } from '../background/runtime-message-event';

/** The bus: `onMessage` for the code under test, `send` for the test. */
export function createRuntimeMessageBus() {
  const listeners: RuntimeMessageListener[] = [];
  return {
    onMessage: { addListener: (listener: RuntimeMessageListener) => void listeners.push(listener) },
    /** Sends as `sender`: what the browser would hand back, and whether any listener kept the message. */
    send(message: unknown, sender: RuntimeMessageSender): { kept: boolean; answer: Promise<unknown> } {
      let answered: (value: unknown) => void = () => {};
      const answer = new Promise<unknown>((resolve) => (answered = resolve));
      let responded = false;
      const sendResponse = (value: unknown) => {
        if (responded) return;
        responded = true;
        answered(value);
      };
      const kept = listeners.map((listener) => listener(message, sender, sendResponse)).some(Boolean);
      if (!kept) sendResponse(undefined);
      return { kept, answer };
    },
  };
}
