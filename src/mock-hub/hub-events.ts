/** What a committed mutation looks like to listeners (the webhook delivery module subscribes). */
export interface HubMutation {
  method: string;
  /** Route template, e.g. `/api/settings/webhooks/{webhookId}`. */
  route: string;
  user: string;
  params: Record<string, string>;
}

export interface HubEvents {
  onMutation(listener: (m: HubMutation) => void): () => void;
  emitMutation(m: HubMutation): void;
}

export function createHubEvents(): HubEvents {
  const listeners = new Set<(m: HubMutation) => void>();
  return {
    onMutation(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emitMutation(m) {
      for (const l of listeners) {
        try {
          l(m);
        } catch (err) {
          // A listener's bug must not fail the request that already committed.
          console.error('mock hub: mutation listener failed', err);
        }
      }
    },
  };
}
