import { DEMO_TOKENS } from './seed/users.ts';
import type { MockHub } from './app.ts';

/** What `npm start` and `npm run hub` print once listening: where, which state, which tokens. */
export function printBanner(lines: string[], hub: MockHub, log: (line: string) => void = console.log): void {
  for (const line of lines) log(line);
  log('Demo tokens:');
  for (const t of DEMO_TOKENS) log(`  ${t.token.padEnd(16)} ${t.user} (${t.role})`);
  // Build the big seeded audit history now rather than on the first export request.
  setImmediate(() => hub.context.audit.history('acme'));
}
