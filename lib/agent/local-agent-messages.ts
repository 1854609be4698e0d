/**
 * Every sentence runLocalAgent shows the person. The starts of the first four are the original design's wording, kept
 * verbatim; tests pin each one.
 */
export const LOCAL_AGENT_MESSAGES = {
  tooLong: 'This request is too long for the on-device model. Start a new conversation, or ask for one thing at a time.',
  timeout: 'The on-device model took too long. Try again, or pick a smaller model in the settings.',
  failed: (reason: string) => `The on-device model failed: ${reason || 'unknown error'}`,
  circles: (gist: string) =>
    `${gist ? `${gist}\n\n` : ''}I stopped because I was going in circles. Try asking in other words, or one step at a time.`,
  maxSteps: (steps: number, gist: string) =>
    `${gist ? `${gist}\n\n` : ''}I stopped after ${steps} steps without finishing. Ask me to continue, or split the request into smaller steps.`,
  internal: (reason: string) => `Something went wrong in the agent: ${reason || 'unknown error'}`,
  apology: (problem: string) =>
    `Sorry, I couldn’t work out how to do that with this page’s tools${problem ? ` (${problem})` : ''}. Try asking in other words.`,
} as const;

/** What the loop says to the model (not shown to the person). */
export const LOCAL_AGENT_PROMPTS = {
  /** The request restated after each step, and on resume: a small model continues it instead of echoing. */
  nextStep: (request: string) =>
    `Next step for my request: “${request}”. If it is done, tell me the result in one or two sentences. If not, make the next call.`,
  /** A plain reply that ignored the last failed call. */
  ignoredFailure: (error: string) =>
    `Your last call failed: ${error}\nDon't say it worked. Fix the call and try again, or tell me plainly what went wrong.`,
  /** A reply that told the person to use a tool the model has. */
  doItYourself: (tool: string) => `Don't ask me to do it: ${tool} is one of your tools, so you do it. Call now.`,
  /** Appended to a repeated call's result, once. */
  repeated: 'Note: you already made this exact call and got this same answer. Do not repeat it: use the answer, or do something else.',
  /** A bad reply (unknown tool, unreadable call, invalid arguments, nothing at all). */
  repair: (problems: readonly string[]) => `Error: ${problems.join(' ')} Try again.`,
} as const;
