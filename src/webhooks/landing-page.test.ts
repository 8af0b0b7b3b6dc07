import { describe, expect, it } from 'vitest';
import { renderLandingPage } from './landing-page.ts';

describe('renderLandingPage', () => {
  it('lists every route as a full URL with registration instructions', () => {
    const html = renderLandingPage({
      origin: 'http://127.0.0.1:7860',
      routes: ['/webhooks/a', '/webhooks/b'],
      secured: true,
    });
    expect(html).toContain('POST http://127.0.0.1:7860/webhooks/a');
    expect(html).toContain('POST http://127.0.0.1:7860/webhooks/b');
    expect(html).toContain('2 webhook route(s)');
    expect(html).toMatch(/Settings &rarr; Webhooks/);
    expect(html).toContain('X-Webhook-Secret');
    expect(html).not.toContain('accept requests from anyone');
  });

  it('warns when no secret is configured and tells how to set one', () => {
    const html = renderLandingPage({ origin: 'http://h', routes: [], secured: false });
    expect(html).toContain('accept requests from anyone');
    expect(html).toContain('WEBHOOK_SECRET');
    expect(html).toContain('No webhook handler is registered yet.');
  });

  it('escapes HTML in what it prints', () => {
    const html = renderLandingPage({ origin: 'http://h"><script>', routes: ['/webhooks/x'], secured: true });
    expect(html).not.toContain('<script>');
  });
});
