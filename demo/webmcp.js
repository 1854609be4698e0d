/**
 * Registering tools with whatever WebMCP the browser has right now: native `document.modelContext`
 * (Chromium with WebMCP on), a polyfill installed by an extension, or an older generation of the API
 * (`navigator.modelContext`, `registerTool` returning `{ unregister }`). Without any of them the shop
 * still works by hand; it just has no tools.
 */

/** The model context of this document, if any. */
export function getModelContext() {
  return document.modelContext ?? navigator.modelContext ?? null;
}

/**
 * Resolves with the model context as soon as one exists: an extension's polyfill may install it after
 * this script runs. Resolves with null after `timeoutMs`.
 * @param {number} [timeoutMs]
 */
export function whenModelContext(timeoutMs = 10_000) {
  const now = getModelContext();
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const mc = getModelContext();
      if (mc || Date.now() - started > timeoutMs) {
        clearInterval(timer);
        resolve(mc);
      }
    }, 100);
  });
}

/** An MCP CallToolResult with one text part: what every tool here returns. */
export function textResult(value, isError = false) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
}

/**
 * Wraps a tool's handler so that it takes a parsed object (older Chromium passed a JSON string) and
 * turns a thrown Error into an error result the model can read: a rejected execute reaches the agent
 * only as a generic "UnknownError".
 * @param {(input: any) => any} handler
 */
function safeExecute(handler) {
  return async (input) => {
    try {
      const args = typeof input === 'string' ? JSON.parse(input || '{}') : (input ?? {});
      return await handler(args);
    } catch (error) {
      return textResult(`Error: ${error instanceof Error ? error.message : String(error)}`, true);
    }
  };
}

/**
 * Registers one tool until `signal` aborts. Returns whether the registration was accepted.
 * @param {any} modelContext
 * @param {{ name: string, title?: string, description: string, inputSchema: object, annotations?: object,
 *   execute: (input: any) => any }} tool
 * @param {AbortSignal} signal
 */
export async function registerTool(modelContext, tool, signal) {
  if (signal.aborted) return false;
  const definition = { ...tool, execute: safeExecute(tool.execute) };
  let registration;
  try {
    // Today's API unregisters when the signal aborts and returns a promise; older ones return
    // { unregister } or want unregisterTool(name).
    registration = await modelContext.registerTool(definition, { signal });
  } catch (error) {
    console.warn(`[demo shop] could not register ${tool.name}:`, error);
    return false;
  }
  const legacyUnregister =
    typeof registration?.unregister === 'function'
      ? () => registration.unregister()
      : typeof modelContext.unregisterTool === 'function'
        ? () => modelContext.unregisterTool(tool.name)
        : null;
  if (legacyUnregister) {
    const unregister = () => {
      try {
        legacyUnregister();
      } catch {
        // Already gone: the signal did it.
      }
    };
    if (signal.aborted) unregister();
    else signal.addEventListener('abort', unregister, { once: true });
  }
  return true;
}
