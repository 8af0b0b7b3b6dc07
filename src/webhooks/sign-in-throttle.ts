// Slows down guessing the webhook secret on the page's sign-in form: after a few failed sign-ins a
// client must wait before the next try, the wait doubling with each further failure, up to a cap.
// Memory is bounded: the clients tracked are capped, the oldest forgotten first.

export interface ThrottleOptions {
  /** Failures allowed before waits begin. */
  freeFailures?: number;
  /** The first wait; each later failure doubles it. */
  baseMs?: number;
  maxMs?: number;
  /** Clients remembered at once. */
  maxClients?: number;
  now?: () => number;
}

interface Failures {
  count: number;
  /** When the client may try again. */
  until: number;
}

export class SignInThrottle {
  private readonly clients = new Map<string, Failures>();
  private readonly freeFailures: number;
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly maxClients: number;
  private readonly now: () => number;

  constructor(options: ThrottleOptions = {}) {
    this.freeFailures = options.freeFailures ?? 5;
    this.baseMs = options.baseMs ?? 1000;
    this.maxMs = options.maxMs ?? 60_000;
    this.maxClients = options.maxClients ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Milliseconds the client must still wait before its next try; 0 when it may try now. */
  waitMs(client: string): number {
    const f = this.clients.get(client);
    return f ? Math.max(0, f.until - this.now()) : 0;
  }

  failed(client: string): void {
    const f = this.clients.get(client) ?? { count: 0, until: 0 };
    f.count++;
    const over = f.count - this.freeFailures;
    f.until = over > 0 ? this.now() + Math.min(this.maxMs, this.baseMs * 2 ** (over - 1)) : 0;
    // Re-inserted, so the map's order is from the least recently failed to the most.
    this.clients.delete(client);
    this.clients.set(client, f);
    if (this.clients.size > this.maxClients) this.clients.delete(this.clients.keys().next().value!);
  }

  succeeded(client: string): void {
    this.clients.delete(client);
  }

  get tracked(): number {
    return this.clients.size;
  }
}
