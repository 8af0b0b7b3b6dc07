import type { MockHub } from './app.ts';

/** Ctrl-C / SIGTERM: stop accepting connections, let the hub flush its state, then exit. */
export function stopOnSignals(server: { close(): unknown }, hub: MockHub): void {
  const stop = async () => {
    server.close();
    await hub.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
