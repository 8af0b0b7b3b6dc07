import { describe, expect, it } from 'vitest';
import { PROXIED_HUB_META, proxiedHubUrl, withProxiedHubMeta } from './proxied-hub.ts';

/** The one query proxiedHubUrl makes, answered from `html` as a parser would (entities decoded). */
function docOf(html: string) {
  return {
    querySelector(selector: string) {
      if (selector !== `meta[name="${PROXIED_HUB_META}"]`) throw new Error(`unexpected query ${selector}`);
      const content = new RegExp(`<meta name="${PROXIED_HUB_META}" content="([^"]*)"`).exec(html)?.[1];
      const decoded = content
        ?.replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&amp;/g, '&');
      return decoded === undefined ? null : { getAttribute: (n: string) => (n === 'content' ? decoded : null) };
    },
  } as Pick<Document, 'querySelector'>;
}

const PAGE = '<!doctype html>\n<html lang="en">\n  <head>\n    <title>Hub Console</title>\n  </head>\n</html>';

describe('the proxied hub meta tag', () => {
  it('names the hub in the head, escaped for the attribute, and the page reads it back', () => {
    const html = withProxiedHubMeta(PAGE, 'https://h.example/a"b&c<d');
    expect(html.indexOf(PROXIED_HUB_META)).toBeLessThan(html.indexOf('<title>'));
    expect(html).toContain('content="https://h.example/a&quot;b&amp;c&lt;d"');
    expect(proxiedHubUrl(docOf(html))).toBe('https://h.example/a"b&c<d');
  });

  it('a page served without it picks its hub itself', () => {
    expect(proxiedHubUrl(docOf(PAGE))).toBeNull();
  });
});
