import { formatBytes } from '../../components/ui/format.ts';
import {
  DELIVERY_PAYLOAD_LIMIT_BYTES,
  DELIVERY_RESPONSE_LIMIT_BYTES,
  type WebhookDelivery,
} from '../../hub/schemas/index.ts';
import { prettyJson } from './delivery-outcome.ts';

const pre =
  'max-h-96 overflow-auto whitespace-pre-wrap break-all rounded-md bg-subtle p-3 font-mono text-xs text-foreground';
/** The log's limits are powers of two: say them as such. */
const kib = (bytes: number) => `${bytes / 1024} KiB`;
const note = 'mt-1 text-xs text-muted';

function Headers({ headers }: { headers: Record<string, string> }) {
  const rows = Object.entries(headers);
  if (rows.length === 0)
    return (
      <p className="text-sm text-muted">
        No HTTP request: this webhook starts a job, which gets the payload in <code>WEBHOOK_PAYLOAD</code>.
      </p>
    );
  return (
    <table className="mb-3 text-left text-sm" data-testid="request-headers">
      <caption className="sr-only">Request headers</caption>
      <tbody>
        {rows.map(([name, value]) => (
          <tr key={name}>
            <th scope="row" className="py-0.5 pr-4 font-mono text-xs font-medium">
              {name}
            </th>
            <td className="py-0.5 font-mono text-xs">
              {value}
              {name.toLowerCase() === 'x-webhook-secret' && (
                <span className="ml-2 font-sans text-muted">(the webhook’s secret, masked)</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the hub sent: headers and the payload, pretty-printed. */
export function DeliveryRequestView({ delivery }: { delivery: WebhookDelivery }) {
  const req = delivery.request;
  return (
    <section aria-labelledby="request-title" className="min-w-0">
      <h2 id="request-title" className="mb-2 text-lg font-semibold">
        Request
      </h2>
      {!req ? (
        <p className="text-sm text-muted">This delivery was logged before requests were recorded.</p>
      ) : (
        <>
          <Headers headers={req.headers} />
          <h3 className="mb-1 text-sm font-medium">Payload</h3>
          <pre className={pre} data-testid="payload" tabIndex={0} aria-label="Payload">
            {req.payloadTruncated ? req.payload : prettyJson(req.payload)}
          </pre>
          <p className={note}>
            {formatBytes(req.payloadBytes)}
            {req.payloadTruncated &&
              ` — the log keeps the first ${kib(DELIVERY_PAYLOAD_LIMIT_BYTES)} only, so it cannot be replayed`}
          </p>
        </>
      )}
    </section>
  );
}

/** What the receiver answered: the start of its body. */
export function DeliveryResponseView({ delivery }: { delivery: WebhookDelivery }) {
  const res = delivery.response;
  const size = res?.bodyBytes == null ? 'size unknown' : formatBytes(res.bodyBytes);
  return (
    <section aria-labelledby="response-title" className="min-w-0">
      <h2 id="response-title" className="mb-2 text-lg font-semibold">
        Response
      </h2>
      {!res ? (
        <p className="text-sm text-muted">
          {delivery.request && Object.keys(delivery.request.headers).length === 0
            ? 'None: a job was started instead of an HTTP request.'
            : 'No HTTP response came.'}
        </p>
      ) : (
        <>
          <p className="mb-1 text-sm">
            {delivery.status !== null && <span className="font-medium">HTTP {delivery.status}</span>}
            {res.contentType && <span className="ml-2 font-mono text-xs">{res.contentType}</span>}
          </p>
          {res.body ? (
            <pre className={pre} data-testid="response-body" tabIndex={0} aria-label="Response body">
              {res.body}
            </pre>
          ) : (
            <p className="text-sm text-muted">Empty body.</p>
          )}
          {res.bodyTruncated && (
            <p className={note}>
              The first {kib(DELIVERY_RESPONSE_LIMIT_BYTES)} of {size}.
            </p>
          )}
        </>
      )}
    </section>
  );
}
