/**
 * The shape of runtime.onMessage that the background's listeners are added to: a listener answers a message it
 * takes by calling `sendResponse` later and returning true; it returns false for one it leaves to others.
 */

/** The sender as the browser attests it (runtime.MessageSender: Chrome's and Firefox's both fit). */
export interface RuntimeMessageSender {
  id?: string;
  url?: string;
  origin?: string;
  envType?: string;
  tab?: { id?: number };
  frameId?: number;
  documentId?: string;
}

/** One runtime.onMessage listener. */
export type RuntimeMessageListener = (message: unknown, sender: RuntimeMessageSender, sendResponse: (answer: unknown) => void) => boolean;

/** runtime.onMessage (the part used). */
export interface RuntimeMessageEvent {
  addListener(listener: RuntimeMessageListener): void;
}
