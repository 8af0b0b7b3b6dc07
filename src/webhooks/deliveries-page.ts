// The deliveries part of the landing page: recent deliveries per route, one delivery in full, and
// the sign-in form when a secret guards them. Server-rendered, no script.
import { MAX_PAYLOAD_DEPTH } from './arrival.ts';
import { nestsDeeperThan } from './json-depth.ts';
import { escapeHtml } from './landing-page.ts';
import type { Delivery } from './store/delivery-record.ts';
import { detail, summarize } from './store/delivery-summary.ts';

export const RECENT_PER_ROUTE = 20;

/**
 * The payload as the page and the API show it: parsed, or the raw text when it nests deeper than a
 * receiver accepts now (stored by an older version), since rendering it would overflow the stack.
 */
export function shownPayload(d: Delivery): unknown {
  if (nestsDeeperThan(d.body, MAX_PAYLOAD_DEPTH)) return d.body;
  try {
    return JSON.parse(d.body) as unknown;
  } catch {
    return d.body;
  }
}

export function renderSignIn(failed = false): string {
  return `<h2>Deliveries</h2>
    <p>Deliveries can carry private payloads: enter the webhook secret to see them.</p>
    ${failed ? '<p role="alert"><strong>That is not the secret.</strong></p>' : ''}
    <form method="post" action="/sign-in">
      <label>Webhook secret <input type="password" name="secret" autocomplete="current-password" required /></label>
      <button type="submit">Sign in</button>
    </form>`;
}

const ms = (v: number | null) => (v === null ? '' : `${v} ms`);

export function renderRecent(byRoute: ReadonlyMap<string, Delivery[]>): string {
  const sections = [...byRoute].map(([route, deliveries]) => {
    const rows = deliveries.map((d) => {
      const s = summarize(d);
      return `<tr><td>${escapeHtml(s.receivedAt)}</td><td>${escapeHtml(s.event)}</td><td>${escapeHtml(s.repo)}</td>
          <td>${s.state}</td><td>${s.attempts}</td><td>${ms(s.durationMs)}</td>
          <td><a href="/?delivery=${s.id}">${s.id.slice(0, 12)}</a></td></tr>`;
    });
    return `<h3>/webhooks/${escapeHtml(route)}</h3>
    ${
      rows.length
        ? `<table>
      <thead><tr><th>Received</th><th>Event</th><th>Repo</th><th>State</th><th>Attempts</th><th>Duration</th><th>Delivery</th></tr></thead>
      <tbody>${rows.join('\n')}</tbody>
    </table>`
        : '<p>No delivery yet.</p>'
    }`;
  });
  return `<h2>Recent deliveries</h2>
    <p>The newest ${RECENT_PER_ROUTE} per route. As JSON: <code>GET /deliveries?route=&amp;state=&amp;since=</code>.</p>
    ${sections.join('\n')}`;
}

export function renderDelivery(d: Delivery): string {
  const full = detail(d);
  const attempts = full.attemptLog.map(
    (a) =>
      `<li>Attempt ${a.n} at ${escapeHtml(a.startedAt)}${a.durationMs === null ? ' (running)' : `, ${a.durationMs} ms`}${
        a.error === undefined ? '' : `: <samp>${escapeHtml(a.error)}</samp>`
      }</li>`,
  );
  return `<h2>Delivery ${d.id}</h2>
    <p><a href="/">All deliveries</a></p>
    <dl>
      <dt>Route</dt><dd>/webhooks/${escapeHtml(d.route)}</dd>
      <dt>Received</dt><dd>${escapeHtml(full.receivedAt)}</dd>
      <dt>State</dt><dd>${d.state}${full.nextAttemptAt ? `, next attempt at ${escapeHtml(full.nextAttemptAt)}` : ''}</dd>
      <dt>Duplicates received</dt><dd>${d.duplicates}</dd>
      <dt>Replays</dt><dd>${d.replays}</dd>
    </dl>
    <form method="post" action="/deliveries/${d.id}/replay"><button type="submit">Replay</button></form>
    <h3>Attempts</h3>
    ${attempts.length ? `<ol>${attempts.join('\n')}</ol>` : '<p>None yet.</p>'}
    ${'result' in full ? `<h3>Result</h3><pre>${escapeHtml(JSON.stringify(full.result, null, 2))}</pre>` : ''}
    <h3>Headers</h3>
    <pre>${escapeHtml(JSON.stringify(full.headers, null, 2))}</pre>
    <h3>Payload</h3>
    <pre>${escapeHtml(JSON.stringify(shownPayload(d), null, 2))}</pre>`;
}
