export const SUSPEND_AFTER_FAILURES = 5;

/** Counts consecutive failed deliveries per webhook; says when the threshold is reached. */
export class FailureTracker {
  private readonly streak = new Map<string, number>();

  constructor(private readonly threshold = SUSPEND_AFTER_FAILURES) {}

  /** Returns true exactly when this failure completes a streak of `threshold`; the streak then restarts. */
  record(webhookId: string, ok: boolean): boolean {
    if (ok) {
      this.streak.delete(webhookId);
      return false;
    }
    const n = (this.streak.get(webhookId) ?? 0) + 1;
    if (n >= this.threshold) {
      this.streak.delete(webhookId);
      return true;
    }
    this.streak.set(webhookId, n);
    return false;
  }

  reset(webhookId: string): void {
    this.streak.delete(webhookId);
  }

  current(webhookId: string): number {
    return this.streak.get(webhookId) ?? 0;
  }
}
