import { describe, expect, it } from 'vitest';
import { testHub } from '../test-support.ts';

const bytes = new Uint8Array(Array.from({ length: 1000 }, (_, i) => i % 251));

async function hubWithFiles() {
  const hub = await testHub();
  hub.registerRepoFiles('acme/consisid-demo', [
    { path: 'model.safetensors', bytes },
    { path: 'nested/config.json', bytes: new TextEncoder().encode('{"a":1}') },
  ]);
  hub.registerRepoFiles('datasets/acme/clips', [{ path: 'data.bin', bytes: bytes.subarray(0, 10) }], 'v1');
  return hub;
}

describe('repo file serving', () => {
  it('serves whole files with ETag, length, CORS and CORP', async () => {
    const hub = await hubWithFiles();
    const r = await hub.app.request('/acme/consisid-demo/resolve/main/model.safetensors', {
      headers: { origin: 'http://x.test' },
    });
    expect(r.status).toBe(200);
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(bytes);
    expect(r.headers.get('content-length')).toBe('1000');
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(await (await hub.app.request('/acme/consisid-demo/resolve/main/nested/config.json')).json()).toEqual({
      a: 1,
    });
  });

  it('answers ranges with 206 and Content-Range, 416 beyond the end, 304 on a matching ETag', async () => {
    const hub = await hubWithFiles();
    const url = '/acme/consisid-demo/resolve/main/model.safetensors';
    const part = await hub.app.request(url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(10, 20));
    const tail = await hub.app.request(url, { headers: { range: 'bytes=-8' } });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.subarray(992));
    const bad = await hub.app.request(url, { headers: { range: 'bytes=1000-' } });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe('bytes */1000');
    const etag = part.headers.get('etag')!;
    expect((await hub.app.request(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('HEAD has headers and no body; dataset prefix and revisions are honoured; 404 otherwise', async () => {
    const hub = await hubWithFiles();
    const head = await hub.app.request('/acme/consisid-demo/resolve/main/model.safetensors', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('1000');
    expect(head.headers.get('x-repo-commit')).toMatch(/^[0-9a-f]{40}$/);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect((await hub.app.request('/datasets/acme/clips/resolve/v1/data.bin')).status).toBe(200);
    expect((await hub.app.request('/datasets/acme/clips/resolve/main/data.bin')).status).toBe(404);
    const missing = await hub.app.request('/acme/consisid-demo/resolve/main/nope.bin');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-error-message')).toContain('nope.bin');
  });
});

describe('a local folder served as a repository', () => {
  it('streams its files from disk with ranges, and nothing outside the folder', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const root = mkdtempSync(path.join(tmpdir(), 'repo-folder-'));
    const dir = path.join(root, 'ckpt');
    mkdirSync(path.join(dir, 'transformer'), { recursive: true });
    writeFileSync(path.join(dir, 'transformer', 'w.bin'), bytes);
    writeFileSync(path.join(root, 'secret.txt'), 'no');
    const hub = await testHub();
    hub.registerRepoFolder('me/local', dir);
    const url = '/me/local/resolve/main/transformer/w.bin';
    const full = await hub.app.request(url);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-length')).toBe('1000');
    expect(new Uint8Array(await full.arrayBuffer())).toEqual(bytes);
    const part = await hub.app.request(url, { headers: { range: 'bytes=990-' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(990));
    expect((await hub.app.request(url, { headers: { 'if-none-match': full.headers.get('etag')! } })).status).toBe(304);
    for (const p of ['transformer', 'nope.bin', '..%2Fsecret.txt', 'transformer/..%2F..%2Fsecret.txt'])
      expect((await hub.app.request(`/me/local/resolve/main/${p}`)).status, p).toBe(404);
    expect((await hub.app.request('/me/local/resolve/v2/transformer/w.bin')).status).toBe(404);
  });

  it('refuses symbolic links that lead out of the folder; serves those that stay inside', async () => {
    const { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const root = mkdtempSync(path.join(tmpdir(), 'repo-links-'));
    const dir = path.join(root, 'ckpt');
    mkdirSync(path.join(dir, 'transformer'), { recursive: true });
    mkdirSync(path.join(root, 'outside'));
    writeFileSync(path.join(root, 'outside', 'secret.txt'), 'SECRET-BYTES');
    writeFileSync(path.join(dir, 'transformer', 'config.json'), '{}');
    symlinkSync(path.join(root, 'outside', 'secret.txt'), path.join(dir, 'file-link.txt'));
    symlinkSync(path.join(root, 'outside'), path.join(dir, 'dir-link'));
    symlinkSync('transformer/config.json', path.join(dir, 'inside.json'));
    const hub = await testHub();
    hub.registerRepoFolder('me/links', dir);
    for (const p of ['file-link.txt', 'dir-link/secret.txt', 'dir-link%2Fsecret.txt']) {
      const r = await hub.app.request(`/me/links/resolve/main/${p}`);
      expect(r.status, p).toBe(404);
      expect(await r.text(), p).not.toContain('SECRET');
    }
    expect(await (await hub.app.request('/me/links/resolve/main/inside.json')).json()).toEqual({});
  });
});

describe('conditional requests', () => {
  const url = '/acme/consisid-demo/resolve/main/model.safetensors';

  it('If-None-Match: a list, a weak tag or * naming the file is 304 (GET and HEAD); another tag is 200', async () => {
    const hub = await hubWithFiles();
    const etag = (await hub.app.request(url, { method: 'HEAD' })).headers.get('etag')!;
    for (const inm of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      for (const method of ['GET', 'HEAD'])
        expect(
          (await hub.app.request(url, { method, headers: { 'if-none-match': inm } })).status,
          `${method} ${inm}`,
        ).toBe(304);
    }
    expect((await hub.app.request(url, { headers: { 'if-none-match': '"other", W/"x"' } })).status).toBe(200);
  });

  it("If-Range: the range when the tag is the file's, the whole file when it changed (never bytes of two versions)", async () => {
    const hub = await hubWithFiles();
    const etag = (await hub.app.request(url, { method: 'HEAD' })).headers.get('etag')!;
    const same = await hub.app.request(url, { headers: { range: 'bytes=0-9', 'if-range': etag } });
    expect(same.status).toBe(206);
    expect(new Uint8Array(await same.arrayBuffer())).toEqual(bytes.subarray(0, 10));
    for (const ifRange of ['"an-older-version"', `W/${etag}`, 'Wed, 21 Oct 2015 07:28:00 GMT']) {
      const changed = await hub.app.request(url, { headers: { range: 'bytes=0-9', 'if-range': ifRange } });
      expect(changed.status, ifRange).toBe(200);
      expect(changed.headers.get('content-range')).toBeNull();
      expect(new Uint8Array(await changed.arrayBuffer())).toEqual(bytes);
    }
    // a page on another origin may send both conditions (CORS preflight)
    const pre = await hub.app.request(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://x.test',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'range,if-range,if-none-match',
      },
    });
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual(
      expect.arrayContaining(['range', 'if-range', 'if-none-match']),
    );
  });
});
