/**
 * The on-page cursor that shows what a running tool touches: an arrow that glides to an element, with a small
 * label naming the tool, then fades.
 *
 * It is created on the first move only (pages where no tool runs get nothing), lives in a closed shadow root on
 * a fixed-position host (so it shifts no layout and page CSS cannot reach it), never takes clicks
 * (pointer-events: none), and jumps instead of gliding when the person prefers reduced motion.
 */

/** The cursor's public surface. */
export interface ToolCursor {
  /** Glides to the element's centre (scrolling it into view if needed) and shows the label. */
  moveTo(element: Element, label: string): void;
  /** Fades out after `delayMs`; a later moveTo cancels the fade. */
  fade(delayMs?: number): void;
  /** Removes everything it added. */
  destroy(): void;
  /** The host element, when created (for tests: it is the only thing the cursor adds). */
  readonly host: HTMLElement | undefined;
}

const STYLE = `
:host { all: initial; }
.cursor { position: fixed; left: 0; top: 0; z-index: 2147483647; pointer-events: none; opacity: 0;
  transform: translate(var(--x, 0px), var(--y, 0px));
  transition: transform 420ms cubic-bezier(.2,.7,.2,1), opacity 240ms ease; will-change: transform; }
.cursor.visible { opacity: 1; }
.cursor svg { display: block; filter: drop-shadow(0 1px 2px rgba(0,0,0,.35)); }
.label { position: absolute; left: 18px; top: 20px; white-space: nowrap; font: 600 12px/1.4 system-ui, sans-serif;
  color: #fff; background: #4f46e5; border-radius: 6px; padding: 2px 8px; box-shadow: 0 1px 3px rgba(0,0,0,.3); }
@media (prefers-reduced-motion: reduce) { .cursor { transition: opacity 1ms linear; } }
`;

const SVG = 'http://www.w3.org/2000/svg';

function arrow(doc: Document): SVGSVGElement {
  const svg = doc.createElementNS(SVG, 'svg');
  for (const [k, v] of [
    ['width', '22'],
    ['height', '22'],
    ['viewBox', '0 0 22 22'],
    ['aria-hidden', 'true'],
  ])
    svg.setAttribute(k, v);
  const path = doc.createElementNS(SVG, 'path');
  for (const [k, v] of [
    ['d', 'M3 2l15 8.5-6.6 1.6L8.6 19z'],
    ['fill', '#4f46e5'],
    ['stroke', '#fff'],
    ['stroke-width', '1.5'],
    ['stroke-linejoin', 'round'],
  ]) {
    path.setAttribute(k, v);
  }
  svg.append(path);
  return svg;
}

/** Creates the cursor for one document; nothing is added until the first moveTo. */
export function createToolCursor(doc: Document): ToolCursor {
  let host: HTMLElement | undefined;
  let cursor: HTMLElement | undefined;
  let label: HTMLElement | undefined;
  let fadeTimer: ReturnType<typeof setTimeout> | undefined;

  const ensure = () => {
    if (host?.isConnected && cursor && label) return;
    host = doc.createElement('webmcp-agent-cursor');
    // Fixed, zero-size and out of flow: the page's layout never moves because of it.
    host.setAttribute(
      'style',
      'all: initial; position: fixed; left: 0; top: 0; width: 0; height: 0; pointer-events: none; z-index: 2147483647;',
    );
    host.setAttribute('aria-hidden', 'true');
    const root = host.attachShadow({ mode: 'closed' });
    const style = doc.createElement('style');
    style.textContent = STYLE;
    cursor = doc.createElement('div');
    cursor.className = 'cursor';
    cursor.append(arrow(doc));
    label = doc.createElement('div');
    label.className = 'label';
    cursor.append(label);
    root.append(style, cursor);
    (doc.documentElement ?? doc.body)?.append(host);
  };

  return {
    moveTo(element, text) {
      ensure();
      clearTimeout(fadeTimer);
      const view = doc.defaultView;
      const rect0 = element.getBoundingClientRect();
      if (view && (rect0.bottom < 0 || rect0.top > view.innerHeight)) element.scrollIntoView({ block: 'center' });
      const rect = element.getBoundingClientRect();
      cursor!.style.setProperty('--x', `${Math.round(rect.left + Math.min(rect.width / 2, 40))}px`);
      cursor!.style.setProperty('--y', `${Math.round(rect.top + Math.min(rect.height / 2, 20))}px`);
      label!.textContent = text;
      cursor!.classList.add('visible');
    },
    fade(delayMs = 900) {
      if (!cursor) return;
      clearTimeout(fadeTimer);
      fadeTimer = setTimeout(() => cursor?.classList.remove('visible'), delayMs);
    },
    destroy() {
      clearTimeout(fadeTimer);
      host?.remove();
      host = cursor = label = undefined;
    },
    get host() {
      return host;
    },
  };
}
