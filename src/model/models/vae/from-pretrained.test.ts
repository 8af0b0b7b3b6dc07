import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeEnvironment } from '../../node.ts';
import { relativeError } from '../../io/tensor.ts';
import { vaeFromPretrained } from './from-pretrained.ts';
import { loadVaeCase, vaeCaseDir } from './test-fixtures.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'vae-from-pretrained-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('vaeFromPretrained', () => {
  it("reads a checkpoint folder's vae/ (or a named subfolder) and decodes on the environment's backend", async () => {
    cpSync(vaeCaseDir('vae-tiny'), path.join(dir, 'vae'), { recursive: true });
    cpSync(vaeCaseDir('vae-tiny'), path.join(dir, 'other'), { recursive: true });
    const c = loadVaeCase('vae-tiny');
    for (const subfolder of [undefined, 'other']) {
      const d = await vaeFromPretrained(dir, {
        environment: nodeEnvironment,
        threads: 1,
        ...(subfolder ? { subfolder } : {}),
      });
      try {
        expect(relativeError((await d.decode(c.latents)).data, c.expected.data)).toBeLessThanOrEqual(c.tolerance);
      } finally {
        await d.release();
      }
    }
  });

  it('a folder without vae/ is taken as a repository id, which the hub is asked for', async () => {
    const hubUrl = 'http://127.0.0.1:9'; // nothing listens: the request fails, naming the vae/ file
    await expect(vaeFromPretrained('owner/name', { environment: nodeEnvironment, hubUrl })).rejects.toThrow(
      /owner\/name\/resolve\/main\/vae\/config\.json/,
    );
  });
});
