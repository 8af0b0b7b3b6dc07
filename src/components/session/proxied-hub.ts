// `npm start -- --hub-url <url>` serves the page with a meta tag naming the hub its server passes
// requests through to: the page then calls only its own origin, and sign-in shows that hub, fixed.

export const PROXIED_HUB_META = 'hub-console-proxied-hub';

/** The hub behind this page's server, or null when the page picks its hub itself. */
export function proxiedHubUrl(doc: Pick<Document, 'querySelector'> = document): string | null {
  return doc.querySelector(`meta[name="${PROXIED_HUB_META}"]`)?.getAttribute('content') || null;
}

/** `html` with the meta tag that makes the page proxied (for the server; the URL is escaped for the attribute). */
export function withProxiedHubMeta(html: string, hubUrl: string): string {
  const content = hubUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return html.replace('<head>', `<head>\n    <meta name="${PROXIED_HUB_META}" content="${content}" />`);
}

/** The hub's own address, for links to its website and for display: the proxied hub, else where the client calls. */
export function hubSiteUrl(baseUrl: string): string {
  return proxiedHubUrl() ?? baseUrl;
}
