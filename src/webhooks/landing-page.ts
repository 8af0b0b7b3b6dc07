export interface LandingPageInput {
  /** Scheme, host and port the page was requested at, e.g. `http://127.0.0.1:7860`. */
  origin: string;
  routes: readonly string[];
  secured: boolean;
  /** Extra HTML after the instructions (the deliveries section); already escaped. */
  more?: string;
}

/**
 * Sent with every page: it has no script, style or frame of its own, its forms post to this server,
 * and no other site may frame it (a framed sign-in form or replay button invites clickjacking).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function renderLandingPage({ origin, routes, secured, more = '' }: LandingPageInput): string {
  const items = routes.length
    ? routes.map((r) => `<li><code>POST ${escapeHtml(`${origin}${r}`)}</code></li>`).join('\n      ')
    : '<li>No webhook handler is registered yet.</li>';
  const secret = secured
    ? `<p>This server requires a secret. Enter the same value in the webhook's <strong>Secret</strong> field on the hub;
      the hub sends it in the <code>X-Webhook-Secret</code> header. A request without the header is refused with 401,
      one with a wrong secret with 403.</p>`
    : `<p><strong>No secret is configured: these endpoints accept requests from anyone.</strong> Set
      <code>WEBHOOK_SECRET</code> in this server's environment (or pass <code>secret</code> to
      <code>createWebhooksServer</code>) and enter the same value in the webhook's <strong>Secret</strong> field on the hub.
      The hub then sends it in the <code>X-Webhook-Secret</code> header and requests without it are refused.</p>`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Webhooks server</title>
  </head>
  <body>
    <h1>Webhooks server</h1>
    <p>${routes.length} webhook route(s) registered:</p>
    <ul>
      ${items}
    </ul>
    <h2>Register a route on the hub</h2>
    <ol>
      <li>Open the hub's <strong>Settings &rarr; Webhooks</strong> and add a webhook.</li>
      <li>Choose what it watches (repos, users or organizations) and its domains (<code>repo</code>, <code>discussion</code>).</li>
      <li>Set its <strong>Target URL</strong> to one of the URLs above. The hub must be able to reach this host.</li>
    </ol>
    <h2>Secret</h2>
    ${secret}
    ${more}
  </body>
</html>
`;
}
