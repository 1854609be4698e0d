/**
 * The attacker's seat for trust tests: code run inside the extension's isolated-world content script of a page,
 * as a compromised renderer could run it. Chrome tells extensions to assume a content script can be taken over, so
 * anything privileged must refuse what this world asks. Reached through the Chrome DevTools Protocol: the isolated
 * world is an execution context of the page's frame whose origin is the extension's.
 */
import type { Page } from '@playwright/test';

interface ExecutionContext {
  id: number;
  origin: string;
  name: string;
  auxData?: { frameId?: string; isDefault?: boolean; type?: string };
}

/**
 * Evaluates `expression` (an async function's source, called with no arguments) in the extension's content-script
 * world of the page's main frame, and returns its JSON-serialisable result. `chrome.*` there is what the content
 * script has. Throws what the expression threw, with its description.
 */
export async function evaluateInContentScript<T>(page: Page, extensionId: string, expression: string): Promise<T> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const contexts: ExecutionContext[] = [];
    cdp.on('Runtime.executionContextCreated', (event: { context: ExecutionContext }) => contexts.push(event.context));
    // Runtime.enable replays every existing context as an event before it answers.
    await cdp.send('Runtime.enable');
    const { frameTree } = (await cdp.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
    const world = contexts.find(
      (c) => c.auxData?.type === 'isolated' && c.auxData.frameId === frameTree.frame.id && c.origin.includes(extensionId),
    );
    if (!world) throw new Error(`no content-script world of ${extensionId} in ${page.url()}`);
    const result = (await cdp.send('Runtime.evaluate', {
      expression: `(${expression})()`,
      contextId: world.id,
      awaitPromise: true,
      returnByValue: true,
    })) as { result: { value?: T }; exceptionDetails?: { exception?: { description?: string }; text: string } };
    if (result.exceptionDetails) {
      throw new Error(result.exceptionDetails.exception?.description ?? result.exceptionDetails.text);
    }
    return result.result.value as T;
  } finally {
    await cdp.detach().catch(() => {});
  }
}
