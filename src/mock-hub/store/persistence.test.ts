import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_RESOURCE_GROUP_IDS } from '../seed/resource-groups.ts';
import { TOKENS, call, testHub } from '../test-support.ts';
import { STATE_FILE, loadState } from './persistence.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'mock-hub-'));

describe('persistence', () => {
  it('keeps state across a restart', async () => {
    const dir = tempDir();
    const first = await testHub({ dataDir: dir });
    const hook = await call(first, 'POST', '/api/settings/webhooks', {
      body: { watched: [{ type: 'user', name: 'alice' }], domains: ['repo'], url: 'https://r.test/x' },
    });
    await call(first, 'POST', '/api/notifications/mark-as-read?applyToAll=true');
    await call(first, 'POST', '/api/organizations/acme/settings/tokens/revoke', { body: { token: TOKENS.bobWrite } });
    await call(first, 'PATCH', `/api/organizations/acme/resource-groups/${SEED_RESOURCE_GROUP_IDS.acmeResearch}`, {
      body: { name: 'Renamed' },
    });
    await first.close();

    const second = await testHub({ dataDir: dir });
    expect((await call(second, 'GET', `/api/settings/webhooks/${hook.body.webhook.id}`)).status).toBe(200);
    expect((await call(second, 'GET', '/api/notifications')).body.count.unread).toBe(0);
    expect(
      (await call(second, 'GET', '/api/organizations/acme/settings/repositories', { token: TOKENS.bobWrite })).status,
    ).toBe(403);
    expect(
      (await call(second, 'GET', `/api/organizations/acme/resource-groups/${SEED_RESOURCE_GROUP_IDS.acmeResearch}`))
        .body.name,
    ).toBe('Renamed');
    const audit = (await call(second, 'GET', '/api/organizations/acme/audit-log/export?q=type:resource_group.settings'))
      .body;
    expect(audit[0].message).toContain('Renamed');
    // The seeded audit history is regenerated, not stored.
    expect(readFileSync(join(dir, STATE_FILE)).byteLength).toBeLessThan(2_000_000);
  });

  it('refuses a corrupt state file instead of silently reseeding, and drops leftover temp files', async () => {
    const dir = tempDir();
    await (await testHub({ dataDir: dir })).close();
    writeFileSync(join(dir, `${STATE_FILE}.tmp-999`), '{"half');
    expect(loadState(dir)).toBeDefined();
    writeFileSync(join(dir, STATE_FILE), '{"version":1,"notif');
    await expect(testHub({ dataDir: dir })).rejects.toThrow(/not valid JSON/);
  });

  it('a SIGKILL during a burst of writes loses no acknowledged write and leaves a parseable file', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/hub.ts', '--port', '0', '--data', dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const base = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /Mock hub: (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`hub exited early (${code})`)));
    });
    const acked: string[] = [];
    let killed = false;
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const res = await fetch(`${base}/api/settings/webhooks`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKENS.aliceWrite}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              watched: [{ type: 'user', name: 'alice' }],
              domains: ['repo'],
              url: `https://burst.test/${w}/${i}`,
            }),
          });
          if (res.status === 200) acked.push(((await res.json()) as { webhook: { id: string } }).webhook.id);
        } catch {
          return;
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    // Kill mid-burst: after 30 acknowledged writes, or 8 s after the first one on a slow disk.
    while (acked.length === 0) await new Promise((r) => setTimeout(r, 5));
    const firstAck = Date.now();
    while (acked.length < 30 && Date.now() - firstAck < 8_000) await new Promise((r) => setTimeout(r, 5));
    const exited = new Promise((r) => child.once('exit', r));
    killed = true;
    child.kill('SIGKILL');
    await Promise.all(writers);
    await exited;

    const state = loadState(dir)!;
    const ids = new Set(state.webhooks.map((w) => w.webhook.id));
    expect(acked.length).toBeGreaterThan(0);
    for (const id of acked) expect(ids.has(id), id).toBe(true);
  }, 60_000);
});
