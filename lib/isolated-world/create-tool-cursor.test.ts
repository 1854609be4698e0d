// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createToolCursor } from './create-tool-cursor';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('createToolCursor', () => {
  it('adds nothing until the first move', () => {
    const before = document.documentElement.outerHTML;
    const cursor = createToolCursor(document);
    cursor.fade();
    expect(cursor.host).toBeUndefined();
    expect(document.documentElement.outerHTML).toBe(before);
  });

  it('moves over an element in a closed, fixed, click-through host, and removes itself on destroy', () => {
    document.body.innerHTML = '<button id="b">Go</button>';
    const cursor = createToolCursor(document);
    cursor.moveTo(document.getElementById('b')!, 'search');
    const host = cursor.host!;
    expect(host.isConnected).toBe(true);
    expect(host.shadowRoot).toBeNull();
    expect(host.getAttribute('style')).toContain('position: fixed');
    expect(host.getAttribute('style')).toContain('pointer-events: none');
    expect(host.getAttribute('aria-hidden')).toBe('true');
    cursor.moveTo(document.getElementById('b')!, 'again');
    expect(document.querySelectorAll('webmcp-agent-cursor')).toHaveLength(1);
    cursor.destroy();
    expect(document.querySelector('webmcp-agent-cursor')).toBeNull();
  });
});
