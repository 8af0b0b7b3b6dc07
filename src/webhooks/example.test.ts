import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
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

describe('npm run webhooks:example', () => {
  let child: ChildProcess;
  let url = '';
  let output = '';

  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'src/webhooks/example.ts', '--port', '0'], {
      env: { ...process.env, WEBHOOK_SECRET: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        output += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(output);
        if (m && output.includes('/webhooks/echo')) {
          url = m[1]!;
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`example exited ${code}: ${output}`)));
    });
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
