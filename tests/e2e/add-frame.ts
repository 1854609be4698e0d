import type { Frame, Page } from '@playwright/test';

/**
 * Adds an iframe of `src` (with `allow` when given) to a page or one of its frames, and returns its Frame once
 * loaded. `src` must be unique in the page: the frame is found by its URL.
 */
export async function addFrame(parent: Page | Frame, src: string, allow?: string): Promise<Frame> {
  await parent.evaluate(
    ([url, policy]) =>
      new Promise((resolve) => {
        const frame = document.createElement('iframe');
        if (policy !== null) frame.allow = policy;
        frame.src = url;
        frame.onload = resolve;
        document.body.append(frame);
      }),
    [src, allow ?? null] as const,
  );
  const page = 'page' in parent ? parent.page() : parent;
  const frame = page.frames().find((f) => f.url() === src);
  if (!frame) throw new Error(`no frame ${src}`);
  return frame;
}
