/**
 * One declaration per message channel (docs/architecture.md § Messages between contexts). A channel is a map from
 * `<channel>/<verb>` to `{ request, answer }`: the request's fields besides `type`, and what the receiver answers
 * (`undefined` for a notice nobody answers). Both ends use the helpers below with the same map, so a message's fields
 * and its answer are written once and checked by the compiler at both ends.
 *
 * The compiler's check stops at the context boundary. A receiver gets its message narrowed to the declared shape,
 * but a sender in another context (a content script above all) can send anything: handlers still treat every field
 * as untrusted data, and privileged senders still check what comes back.
 */

/** A channel: each `<channel>/<verb>` with its request fields and its answer (declared as an interface). */
type ChannelMap<M> = { [T in keyof M]: { request: object; answer: unknown } };

/** One message of a channel, as it travels: its type and its request's fields. */
export type MessageOf<M extends ChannelMap<M>, T extends keyof M & string> = { type: T } & M[T]['request'];

/** Any message of a channel. */
export type ChannelMessage<M extends ChannelMap<M>> = { [T in keyof M & string]: MessageOf<M, T> }[keyof M & string];

/** What the receiver of a message answers. */
type AnswerOf<M extends ChannelMap<M>, T extends keyof M & string> = M[T]['answer'];

/** A channel's receiving end: a handler per message type, given the message and what the transport attests. */
export type ChannelHandlers<M extends ChannelMap<M>, Context = undefined> = {
  [T in keyof M & string]?: (message: MessageOf<M, T>, context: Context) => AnswerOf<M, T> | Promise<AnswerOf<M, T>>;
};

/**
 * Sends one message of a channel through `send` (runtime.sendMessage, or tabs.sendMessage aimed at a frame) and
 * gives its answer the declared type. `undefined` when nobody answered.
 */
export function sendMessage<M extends ChannelMap<M>, T extends keyof M & string>(
  send: (message: ChannelMessage<M>) => Promise<unknown>,
  type: T,
  request: M[T]['request'],
): Promise<AnswerOf<M, T> | undefined> {
  return send({ ...request, type } as unknown as ChannelMessage<M>) as Promise<AnswerOf<M, T> | undefined>;
}

/** The `type` of a message from anywhere, when it has a string one. */
function messageType(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const type = (message as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}

/** Whether a message from anywhere is of this type (only its type: its fields are the handler's to check). */
export function isMessage<M extends ChannelMap<M>, T extends keyof M & string>(message: unknown, type: T): message is MessageOf<M, T> {
  return messageType(message) === type;
}

/**
 * Hands a message to its handler, at once (a receiver's state changes in the order messages arrive), and resolves
 * with the answer; undefined when it is not one of this channel's (another channel's listener may take it).
 */
export function handleMessage<M extends ChannelMap<M>, Context = undefined>(
  handlers: ChannelHandlers<M, Context>,
  message: unknown,
  context: Context,
): Promise<unknown> | undefined {
  const type = messageType(message);
  if (type === undefined || !Object.hasOwn(handlers, type)) return undefined;
  const handler = handlers[type as keyof M & string] as (message: unknown, context: Context) => unknown;
  try {
    return Promise.resolve(handler(message, context));
  } catch (error) {
    return Promise.reject(error);
  }
}
