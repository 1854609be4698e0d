/**
 * renderMarkdown in a real browser engine. DOMPurify's safety rests on the HTML parser of the page it runs in
 * (mXSS vectors are parser differentials), and happy-dom's DOM is not one it can run on (it reads `nodeName`
 * through Node.prototype's getter, which happy-dom leaves empty), so this test bundles the module and runs it in
 * the system Chromium, headless, on about:blank. Every request that page makes is recorded.
 */
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exfiltrationVectors } from '../../tests/fixtures/exfiltration-vectors';
import { MARKDOWN_ATTRIBUTES, MARKDOWN_TAGS } from './render-markdown';

/** Markup that fetches, as text: tags and attributes (the vector's name in a link's address does not count). */
const FETCHING_MARKUP =
  /<(img|picture|source|video|audio|track|svg|math|image|use|feimage|style|link|meta|base|form|input|button|object|embed|iframe)\b|\s(src|srcset|background|style|poster|action|formaction|data|ping|xlink:href)=|url\(|@import/;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ATTACKER = 'http://attacker.test:8666';

let browser: Browser;
let page: Page;
const requested: string[] = [];

beforeAll(async () => {
  const bundle = await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry: 'components/chat/render-markdown.ts', formats: ['iife'], name: 'RenderMarkdown' } },
  });
  const code = (Array.isArray(bundle) ? bundle[0] : (bundle as { output: { code: string }[] })).output[0].code;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-background-networking'] });
  page = await browser.newPage();
  page.on('request', (request) => requested.push(request.url()));
  await page.addScriptTag({ content: code });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

interface Rendered {
  html: string;
  /** Elements and attributes outside the allow-list, and the attacker's address anywhere but a link's href. */
  fetching: string[];
}

/**
 * Renders `text` in the page, then parses the result into the live document, as the panel's innerHTML does, and
 * lists everything there that could fetch.
 */
function render(text: string): Promise<Rendered> {
  return page.evaluate(
    ([text, tags, attributes]) => {
      const html: string = (window as any).RenderMarkdown.renderMarkdown(text);
      const host = document.createElement('div');
      document.body.replaceChildren(host);
      host.innerHTML = html;
      const fetching: string[] = [];
      for (const element of host.querySelectorAll('*')) {
        const tag = element.localName;
        if (!tags.includes(tag) || element.namespaceURI !== 'http://www.w3.org/1999/xhtml') fetching.push(`<${tag}>`);
        for (const { name, value } of element.attributes) {
          const allowed = attributes.includes(name) || (tag === 'a' && (name === 'target' || name === 'rel'));
          if (!allowed) fetching.push(`<${tag} ${name}="${value}">`);
          else if (name === 'href' && tag !== 'a') fetching.push(`<${tag} href>`);
          else if (name !== 'href' && value.includes('attacker.test')) fetching.push(`<${tag} ${name}="${value}">`);
        }
        const style = getComputedStyle(element);
        for (const property of ['backgroundImage', 'listStyleImage', 'borderImageSource', 'content'] as const) {
          if (style[property].includes('url(')) fetching.push(`<${tag}> ${property}: ${style[property]}`);
        }
      }
      return { html, fetching };
    },
    [text, MARKDOWN_TAGS, MARKDOWN_ATTRIBUTES] as const,
  );
}

describe('renderMarkdown', () => {
  it.each(exfiltrationVectors(ATTACKER))('leaves nothing that fetches: $name', async ({ text }) => {
    const { html, fetching } = await render(text);
    expect(fetching, html).toEqual([]);
    expect(html.toLowerCase()).not.toMatch(FETCHING_MARKUP);
  });

  it('leaves nothing that fetches when every vector comes in one reply, and the page requested nothing', async () => {
    const text = exfiltrationVectors(ATTACKER)
      .map((v) => v.text)
      .join('\n\n');
    const { html, fetching } = await render(text);
    expect(fetching, html).toEqual([]);
    // Every rendering so far went into the live document; a page that fetched would have shown up here.
    await page.evaluate(() => new Promise((settled) => requestAnimationFrame(() => requestAnimationFrame(settled))));
    expect(requested.filter((url) => url.includes('attacker.test'))).toEqual([]);
  });

  it('shows a remote image as its alt text and its address as a link, never as an image', async () => {
    const { html } = await render('See ![the chart](https://cdn.example/chart.png?d=1).');
    expect(html).toBe(
      '<p>See <span>Image: the chart <a href="https://cdn.example/chart.png?d=1" target="_blank" rel="noopener noreferrer nofollow">https://cdn.example/chart.png?d=1</a></span>.</p>\n',
    );
  });

  it('shows raw and reference-style images the same way, and an image without a web address as text only', async () => {
    expect((await render('<img src="https://cdn.example/a.png" alt="A">')).html).toBe(
      '<span>Image: A <a href="https://cdn.example/a.png" target="_blank" rel="noopener noreferrer nofollow">https://cdn.example/a.png</a></span>',
    );
    expect((await render('![B][img]\n\n[img]: https://cdn.example/b.png')).html).toContain(
      'Image: B <a href="https://cdn.example/b.png" target="_blank"',
    );
    expect((await render('<img src="data:image/png;base64,AAAA" alt="inline">')).html).toBe('<span>Image: inline</span>');
    expect((await render('<img src="/relative.png">')).html).toBe('<span>Image</span>');
  });

  it('keeps an image inside a link as its alt text, so links do not nest', async () => {
    const { html } = await render('[![build passing](https://ci.example/badge.svg)](https://ci.example/run)');
    expect(html).toBe(
      '<p><a href="https://ci.example/run" target="_blank" rel="noopener noreferrer nofollow"><span>Image: build passing</span></a></p>\n',
    );
  });

  it('opens http, https and mailto links in a new tab without opener, referrer or endorsement', async () => {
    for (const href of ['http://a.example/', 'https://b.example/x?y=1', 'mailto:someone@example.com']) {
      const { html } = await render(`[go](${href})`);
      expect(html).toBe(`<p><a href="${href}" target="_blank" rel="noopener noreferrer nofollow">go</a></p>\n`);
    }
    // A link the model wrote with its own target and rel gets ours.
    const { html } = await render('<a href="https://c.example/" target="_self" rel="opener">go</a>');
    expect(html).toBe('<p><a href="https://c.example/" target="_blank" rel="noopener noreferrer nofollow">go</a></p>\n');
  });

  it('drops the address of links that are not absolute http, https or mailto', async () => {
    const hrefs = [
      'javascript:fetch(1)',
      'JaVaScRiPt:alert(1)',
      ' java\tscript:x',
      'data:text/html,<b>x</b>',
      '//attacker.test/x',
      '/relative',
      '#frag',
      'blob:https://x/y',
      'tel:123',
    ];
    for (const href of hrefs) {
      const { html } = await render(`<a href="${href}">go</a>`);
      expect(html, href).toBe('<p><a target="_blank" rel="noopener noreferrer nofollow">go</a></p>\n');
    }
  });

  it('still renders ordinary Markdown: emphasis, lists, code, aligned tables, task lists, line breaks', async () => {
    const { html, fetching } = await render(
      'I found **two mugs**:\nline two\n\n- Enamel\n- Stoneware\n\n`code`\n\n| a | b |\n|:-:|--:|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\n3. third',
    );
    expect(html).toContain('<strong>two mugs</strong>:<br>line two');
    expect(html).toContain('<li>Enamel</li>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<th align="center">a</th>');
    expect(html).toContain('<td align="right">2</td>');
    expect(html).toContain('<li>☑ done</li>');
    expect(html).toContain('<li>☐ open</li>');
    expect(html).toContain('<ol start="3">');
    expect(fetching).toEqual([]);
  });

  it('drops attributes that could restyle or impersonate the panel', async () => {
    const { html } = await render('<p class="tool-card" id="app" data-x="1" aria-label="Allow once" name="n" onclick="x()">hi</p>');
    expect(html).toBe('<p>hi</p>');
  });

  it('gives a text it has seen the same sanitised HTML again (kept, not parsed anew), also after hundreds of other texts', async () => {
    const vectors = exfiltrationVectors(ATTACKER);
    const first = new Map<string, Rendered>();
    for (const { text } of vectors) first.set(text, await render(text));
    for (const { text } of vectors) expect(await render(text)).toEqual(first.get(text));
    // Past what is kept: the texts are let go and sanitised again, to the same HTML.
    await page.evaluate(() => {
      for (let i = 0; i < 500; i++) (window as any).RenderMarkdown.renderMarkdown(`filler ${i} **bold**`);
    });
    for (const { text } of vectors) {
      const again = await render(text);
      expect(again).toEqual(first.get(text));
      expect(again.fetching).toEqual([]);
    }
  });
});
