import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoPayload, on_repo_update } from './example-handlers.ts';
import { samplePayload } from './sample-payload.ts';

describe('example handlers', () => {
  it('echo returns action, scope and repo of the payload', () => {
    const p = samplePayload();
    expect(echoPayload(p)).toEqual({ action: 'update', scope: 'repo.content', repo: p.repo });
  });

  it('on_repo_update tells a repo update from other events', () => {
    expect(on_repo_update(samplePayload())).toMatchObject({ updated: true, repo: 'alice/tiny-model' });
    expect(on_repo_update(samplePayload({ event: { action: 'create', scope: 'discussion' } }))).toMatchObject({
      updated: false,
    });
  });
});

/** Starts the example in a child process; resolves once it has printed its URL and both routes. */
function startExample(args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/webhooks/example.ts', '--port', '0', ...args], {
    env: { ...process.env, WEBHOOK_SECRET: '', WEBHOOKS_STORE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m && output.includes('/webhooks/echo')) resolve({ child, url: m[1]!, output: () => output });
    });
    child.once('exit', (code) => reject(new Error(`example exited ${code}: ${output}`)));
  });
}

describe('npm run webhooks:example', () => {
  let child: ChildProcess;
  let url = '';
  let output = '';

  beforeAll(async () => {
    const started = await startExample([]);
    ({ child, url } = started);
    output = started.output();
  });

  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('prints its URL, both routes and the missing-secret warning', () => {
    expect(output).toContain(`POST ${url}/webhooks/on_repo_update`);
    expect(output).toContain(`POST ${url}/webhooks/echo`);
    expect(output).toMatch(/secret is not defined/);
  });

  it('serves echo and on_repo_update', async () => {
    const payload = samplePayload();
    const echo = await fetch(`${url}/webhooks/echo`, { method: 'POST', body: JSON.stringify(payload) });
    expect(echo.status).toBe(200);
    expect(await echo.json()).toEqual({ action: 'update', scope: 'repo.content', repo: payload.repo });
    const upd = await fetch(`${url}/webhooks/on_repo_update`, { method: 'POST', body: JSON.stringify(payload) });
    expect(await upd.json()).toMatchObject({ updated: true });
  });

  it('stops on SIGTERM', async () => {
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });
});

describe('npm run webhooks:example -- --store <folder>', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'example-store-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('acknowledges with 202, handles in the background, and still has the delivery after a SIGTERM and a restart', async () => {
    const first = await startExample(['--store', dir]);
    const res = await fetch(`${first.url}/webhooks/echo`, { method: 'POST', body: JSON.stringify(samplePayload()) });
    expect(res.status).toBe(202);
    const { deliveryId } = (await res.json()) as { deliveryId: string };
    first.child.kill('SIGTERM');
    expect((await once(first.child, 'exit'))[0]).toBe(0);

    const second = await startExample(['--store', dir]);
    try {
      expect(second.output()).toMatch(/Delivery store at .*: 1 deliveries/);
      const listed = await (await fetch(`${second.url}/deliveries/${deliveryId}`)).json();
      expect(listed).toMatchObject({ state: 'done', result: { action: 'update', scope: 'repo.content' } });
    } finally {
      second.child.kill('SIGTERM');
      await once(second.child, 'exit');
    }
  });
});
