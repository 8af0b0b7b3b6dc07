// The deliveries of one receiver, in memory and in a journal folder: every change is a journal
// record, on disk before the call resolves. Bounded: finished deliveries beyond the newest
// `maxDeliveries`, or older than `maxAgeDays`, are dropped at the next compaction; a delivery still
// queued, running or waiting for a retry is never dropped.
import { Journal, type JournalOptions } from './journal.ts';
import { encodeRecord } from './record-codec.ts';
import {
  applyRecord,
  arrivalRecord,
  progressRecord,
  type Delivery,
  type DeliveryProgress,
  type DeliveryState,
} from './delivery-record.ts';

export interface DeliveryStoreOptions extends JournalOptions {
  /** Default 10,000. */
  maxDeliveries?: number;
  /** Default 30. */
  maxAgeDays?: number;
  now?: () => number;
}

export interface DeliveryFilter {
  route?: string;
  state?: DeliveryState;
  /** Received at or after (epoch ms). */
  since?: number;
  /** Newest first, at most this many (default all). */
  limit?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const finished = (s: DeliveryState) => s === 'done' || s === 'dead';

export class DeliveryStore {
  private nextSeq: number;
  private compacting: Promise<void> | undefined;
  /**
   * A finished delivery's record as the last compaction wrote it, reused by the next compaction while
   * the delivery is unchanged: at the bounds a compaction comes every N/10 deliveries and rewrites all
   * N, so encoding each one anew would cost about ten record encodings per delivery received.
   */
  private readonly encoded = new WeakMap<Delivery, Buffer>();

  private constructor(
    private readonly journal: Journal,
    private readonly deliveries: Map<string, Delivery>,
    private readonly maxDeliveries: number,
    private readonly maxAgeMs: number,
    private readonly now: () => number,
  ) {
    let seq = 0;
    for (const d of deliveries.values()) seq = Math.max(seq, d.seq);
    this.nextSeq = seq + 1;
  }

  static open(dir: string, options: DeliveryStoreOptions = {}): DeliveryStore {
    const { journal, records } = Journal.open(dir, options);
    const deliveries = new Map<string, Delivery>();
    for (const r of records) applyRecord(deliveries, r);
    // Compaction writes in arrival order; records appended after it can only add newer ones.
    return new DeliveryStore(
      journal,
      deliveries,
      options.maxDeliveries ?? 10_000,
      (options.maxAgeDays ?? 30) * DAY_MS,
      options.now ?? Date.now,
    );
  }

  get size(): number {
    return this.deliveries.size;
  }

  get(id: string): Delivery | undefined {
    return this.deliveries.get(id);
  }

  /** Every delivery in arrival order. */
  all(): IterableIterator<Delivery> {
    return this.deliveries.values();
  }

  list(filter: DeliveryFilter = {}): Delivery[] {
    const out: Delivery[] = [];
    const all = [...this.deliveries.values()];
    for (let i = all.length - 1; i >= 0 && out.length < (filter.limit ?? Infinity); i--) {
      const d = all[i]!;
      if (filter.route !== undefined && d.route !== filter.route) continue;
      if (filter.state !== undefined && d.state !== filter.state) continue;
      if (filter.since !== undefined && d.receivedAt < filter.since) continue;
      out.push(d);
    }
    return out;
  }

  /**
   * Records a new delivery, queued (or `running`: its first attempt starts as it is stored, written
   * in the same record); resolves once it is on disk.
   */
  add(
    arrival: { id: string; route: string; headers: Record<string, string>; body: string },
    running = false,
  ): Promise<Delivery> {
    const receivedAt = this.now();
    // Every field a change may set is present from the start (undefined until set): every delivery
    // keeps one object shape, so updating one never makes V8 reshape it or fall back to slow paths.
    const d: Delivery = {
      id: arrival.id,
      seq: this.nextSeq++,
      route: arrival.route,
      receivedAt,
      headers: arrival.headers,
      body: arrival.body,
      state: running ? 'running' : 'queued',
      attempts: running ? [{ n: 1, startedAt: receivedAt }] : [],
      budgetFrom: 0,
      result: undefined,
      error: undefined,
      nextAttemptAt: undefined,
      duplicates: 0,
      replays: 0,
    };
    this.deliveries.set(d.id, d);
    const written = this.journal.append(arrivalRecord(d));
    this.maybeCompact();
    return written.then(
      () => d,
      (err: unknown) => {
        // Not on disk, so not accepted: forget it, so the hub's retry is a new delivery.
        this.deliveries.delete(d.id);
        throw err;
      },
    );
  }

  /** Replaces the changing part of a delivery; resolves once the change is on disk. */
  update(id: string, progress: Partial<DeliveryProgress>): Promise<void> {
    const d = this.deliveries.get(id);
    if (!d) return Promise.reject(new Error(`No delivery ${id} in the store.`));
    Object.assign(d, progress);
    this.encoded.delete(d);
    const written = this.journal.append(progressRecord(id, d));
    this.maybeCompact();
    return written;
  }

  private maybeCompact(): void {
    if (this.compacting) return;
    const live = this.deliveries.size;
    const first = this.deliveries.values().next().value;
    const tooOld = first !== undefined && finished(first.state) && first.receivedAt < this.now() - this.maxAgeMs;
    const tooMany = live > this.maxDeliveries + Math.max(100, this.maxDeliveries / 10);
    const tooLong = this.journal.recordCount > Math.max(5000, 3 * live);
    if (tooOld || tooMany || tooLong) this.compact().catch(() => {});
  }

  /** Drops what is past the bounds and rewrites the journal with what is left. */
  compact(): Promise<void> {
    this.compacting ??= this.journal
      .compact(() => {
        this.prune();
        return [...this.deliveries.values()].map((d) => this.encodedArrival(d));
      })
      .finally(() => (this.compacting = undefined));
    return this.compacting;
  }

  private encodedArrival(d: Delivery): Buffer {
    let bytes = this.encoded.get(d);
    if (!bytes) {
      bytes = encodeRecord(arrivalRecord(d));
      if (finished(d.state)) this.encoded.set(d, bytes);
    }
    return bytes;
  }

  private prune(): void {
    const cutoff = this.now() - this.maxAgeMs;
    let excess = this.deliveries.size - this.maxDeliveries;
    for (const d of this.deliveries.values()) {
      const old = d.receivedAt < cutoff;
      if (excess <= 0 && !old) break;
      if (!finished(d.state)) continue;
      this.deliveries.delete(d.id);
      excess--;
    }
  }

  async close(): Promise<void> {
    await this.compacting;
    await this.journal.close();
  }
}
