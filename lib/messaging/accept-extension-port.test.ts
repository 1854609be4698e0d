import { describe, expect, it, vi } from 'vitest';
import { acceptExtensionPort } from './accept-extension-port';

const id = 'abcdefghijklmnopabcdefghijklmnop';
const extension = { id, origin: `chrome-extension://${id}/` };
const port = (name: string, sender: object | undefined, disconnect = vi.fn()) => ({ name, sender, disconnect });

describe('acceptExtensionPort', () => {
  it('accepts a Port of its name from the extension own pages and leaves it open', () => {
    const panel = port('webmcp-agent-panel', { id, url: `${extension.origin}sidepanel.html?tab=3` });
    expect(acceptExtensionPort(panel, 'webmcp-agent-panel', extension)).toBe(true);
    expect(panel.disconnect).not.toHaveBeenCalled();
  });

  it('leaves a Port of another name alone, whoever opened it', () => {
    const other = port('webmcp-agent-sharing', { id, url: 'https://shop.example/' });
    expect(acceptExtensionPort(other, 'webmcp-agent-panel', extension)).toBe(false);
    expect(other.disconnect).not.toHaveBeenCalled();
  });

  it('refuses and disconnects a content script, another extension or an unattested sender using its name', () => {
    const senders = [
      { id, url: 'https://shop.example/' },
      { id, url: `${extension.origin}sidepanel.html`, envType: 'content_child' },
      { id, url: `${extension.origin}sidepanel.html`, origin: 'https://shop.example' },
      { id: 'another-extension', url: `${extension.origin}sidepanel.html` },
      undefined,
    ];
    for (const sender of senders) {
      const forged = port('webmcp-agent-panel', sender);
      expect(acceptExtensionPort(forged, 'webmcp-agent-panel', extension)).toBe(false);
      expect(forged.disconnect).toHaveBeenCalledTimes(1);
    }
  });

  it('refuses a Port that is already gone (its disconnect throws) without throwing', () => {
    const gone = port(
      'webmcp-agent-panel',
      { id, url: 'https://shop.example/' },
      vi.fn(() => {
        throw new Error('Attempting to use a disconnected port object');
      }),
    );
    expect(acceptExtensionPort(gone, 'webmcp-agent-panel', extension)).toBe(false);
  });

  it('refuses a forged Port that has no disconnect', () => {
    expect(
      acceptExtensionPort({ name: 'webmcp-agent-panel', sender: { id, url: 'https://shop.example/' } }, 'webmcp-agent-panel', extension),
    ).toBe(false);
  });
});
