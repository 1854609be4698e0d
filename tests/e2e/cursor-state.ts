/**
 * Where the agent's cursor is on a page: it lives in a closed shadow root, which only the DevTools protocol can
 * read (tests/e2e/connector-cursor.spec.ts, agent-form-waits.spec.ts).
 */
import type { CDPSession, Page } from '@playwright/test';

/** The cursor lives in a closed shadow root: only the DevTools protocol (pierce) can look inside. */
export async function cursorState(
  cdp: CDPSession,
): Promise<{ transform: string; transition: string; label: string; opacity: string } | undefined> {
  const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
  let cursor: any;
  let label = '';
  const walk = (node: any) => {
    const cls = node.attributes?.[node.attributes.indexOf('class') + 1];
    if (node.attributes?.includes('class') && cls?.startsWith('cursor')) cursor = node;
    if (node.attributes?.includes('class') && cls === 'label') label = node.children?.[0]?.nodeValue ?? '';
    for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) walk(child);
  };
  walk(root);
  if (!cursor) return undefined;
  const { computedStyle } = await cdp.send('CSS.getComputedStyleForNode', { nodeId: cursor.nodeId });
  const get = (name: string) => computedStyle.find((p: { name: string }) => p.name === name)?.value ?? '';
  return { transform: get('transform'), transition: get('transition-duration'), label, opacity: get('opacity') };
}

export async function openCdp(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  return cdp;
}

export function translateOf(transform: string): { x: number; y: number } {
  const m = /matrix\(([^)]+)\)/.exec(transform);
  const parts = m ? m[1].split(',').map(Number) : [0, 0, 0, 0, 0, 0];
  return { x: parts[4], y: parts[5] };
}
