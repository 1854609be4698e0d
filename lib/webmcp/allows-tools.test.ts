import { describe, expect, it } from 'vitest';
import { allowsTools, toolsAllowlist } from './allows-tools';

const shop = 'https://shop.example';
const widget = 'https://widget.example';
const ads = 'https://ads.example';

describe('allowsTools (the tools permission policy, default self)', () => {
  it('lets a same-origin child use tools without allow, and a cross-origin one only with allow="tools"', () => {
    expect(allowsTools('', `${shop}/frame`, shop, shop)).toBe(true);
    expect(allowsTools('', `${widget}/w`, widget, shop)).toBe(false);
    expect(allowsTools('camera; fullscreen', `${widget}/w`, widget, shop)).toBe(false);
    expect(allowsTools('tools', `${widget}/w`, widget, shop)).toBe(true);
    expect(allowsTools('camera;  tools ', `${widget}/w`, widget, shop)).toBe(true);
  });

  it('allow="tools" covers the origin of src only: a frame that navigated elsewhere is not delegated', () => {
    expect(allowsTools('tools', `${widget}/w`, ads, shop)).toBe(false);
    expect(allowsTools(`tools ${ads}`, `${widget}/w`, ads, shop)).toBe(true);
    expect(allowsTools('tools *', `${widget}/w`, ads, shop)).toBe(true);
    expect(allowsTools("tools 'self'", `${widget}/w`, widget, shop)).toBe(false);
    expect(allowsTools("tools 'none'", `${shop}/f`, shop, shop)).toBe(false);
  });

  it('an opaque origin (a sandboxed frame) is never "self" nor an origin, and is its iframe\'s "src", as in Chromium', () => {
    expect(allowsTools('', 'about:blank', 'null', 'null')).toBe(false);
    expect(allowsTools('', '', 'null', shop)).toBe(false);
    expect(allowsTools("tools 'self'", '', 'null', shop)).toBe(false);
    expect(allowsTools(`tools ${shop}`, '', 'null', shop)).toBe(false);
    expect(allowsTools('tools', '', 'null', shop)).toBe(true);
    expect(allowsTools('tools', 'data:text/html,x', 'null', shop)).toBe(true);
  });

  it('reads the first tools directive of an allow attribute', () => {
    expect(toolsAllowlist('')).toBeUndefined();
    expect(toolsAllowlist('tools')).toEqual(["'src'"]);
    expect(toolsAllowlist("tools 'self' https://a.example; tools *")).toEqual(["'self'", 'https://a.example']);
    expect(toolsAllowlist('toolsx; xtools')).toBeUndefined();
  });
});
