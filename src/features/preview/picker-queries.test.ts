import { QueryClient } from '@tanstack/react-query';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { HubApiError } from '../../hub/errors.ts';
import { RepoTree, type RepoTreeEntry } from '../../hub/schemas/repo-tree.ts';
import { TOKENS, startMockHub, type Harness } from '../../test-support/hub-harness.ts';
import { checkpointFolders, checkpointFoldersQuery, ownerModelsQuery } from './picker-queries.ts';

const file = (path: string, size: number, lfs = false): RepoTreeEntry => ({
  type: 'file',
  oid: '0'.repeat(40),
  path,
  size: lfs ? 134 : size,
  ...(lfs ? { lfs: { oid: '1'.repeat(64), size, pointerSize: 134 } } : {}),
});

describe('checkpoint folders of a file tree', () => {
  it('are the folders with config.json beside the weights, sized by their safetensors', () => {
    const tree = RepoTree.parse([
      file('README.md', 5),
      { type: 'directory', oid: '2'.repeat(40), path: 'transformer', size: 0 },
      file('transformer/config.json', 900),
      file('transformer/diffusion_pytorch_model.safetensors.index.json', 700),
      file('transformer/diffusion_pytorch_model-00001-of-00002.safetensors', 5_000_000, true),
      file('transformer/diffusion_pytorch_model-00002-of-00002.safetensors', 3_000_000, true),
      file('vae/config.json', 10),
      file('text_encoder/model.safetensors', 10),
      file('config.json', 10),
      file('diffusion_pytorch_model.safetensors', 40),
    ]);
    expect(checkpointFolders(tree)).toEqual([
      { subfolder: '', weightBytes: 40, weightFiles: 1 },
      { subfolder: 'transformer', weightBytes: 8_000_000, weightFiles: 2 },
    ]);
  });

  it('show a vae/ beside the transformer it decodes for, not as a folder to load', () => {
    const tree = RepoTree.parse([
      file('transformer/config.json', 900),
      file('transformer/diffusion_pytorch_model.safetensors', 5_000),
      file('vae/config.json', 10),
      file('vae/diffusion_pytorch_model.safetensors', 700, true),
      file('a/transformer/config.json', 900),
      file('a/transformer/diffusion_pytorch_model.safetensors', 6_000),
    ]);
    expect(checkpointFolders(tree)).toEqual([
      { subfolder: 'a/transformer', weightBytes: 6_000, weightFiles: 1 },
      { subfolder: 'transformer', weightBytes: 5_000, weightFiles: 1, vae: { weightBytes: 700, weightFiles: 1 } },
    ]);
  });

  it('count every weight file of a folder once, whatever the order of the tree', () => {
    const folder = fc.stringMatching(/^[a-z]{1,8}(\/[a-z]{1,8})?$/).filter((n) => !/(^|\/)vae$/.test(n));
    fc.assert(
      fc.property(
        fc.uniqueArray(folder, { maxLength: 5 }),
        fc.array(fc.nat(1e9), { minLength: 1, maxLength: 3 }),
        (names, sizes) => {
          const entries = names.flatMap((n) => [
            file(`${n}/config.json`, 1),
            ...sizes.map((s, i) =>
              file(`${n}/diffusion_pytorch_model-0000${i + 1}-of-0000${sizes.length}.safetensors`, s, true),
            ),
            file(`${n}/diffusion_pytorch_model.safetensors.index.json`, 1),
          ]);
          const folders = checkpointFolders([...entries].reverse());
          expect(folders.map((f) => f.subfolder)).toEqual([...names].sort((a, b) => (a < b ? -1 : 1)));
          for (const f of folders)
            expect(f).toMatchObject({ weightFiles: sizes.length, weightBytes: sizes.reduce((a, b) => a + b, 0) });
        },
      ),
    );
  });
});

let hub: Harness | undefined;
afterEach(() => hub?.close());

describe('the picker reads on a hub with only the real hub routes', () => {
  it("lists the owner's models, a repository's folders with its commit, and a 404 for what is not there", async () => {
    hub = await startMockHub({ specOnly: true });
    const client = hub.as(TOKENS.aliceWrite);
    const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const models = await queries.fetchQuery(ownerModelsQuery(client, 'alice'));
    expect(models.length).toBeGreaterThan(0);
    expect(models.every((m) => m.id.startsWith('alice/'))).toBe(true);
    const listing = await queries.fetchQuery(checkpointFoldersQuery(client, models[0]!.id, 'main'));
    expect(listing.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(listing.folders).toEqual([]);
    const missing = await queries.fetchQuery(checkpointFoldersQuery(client, 'nobody/nothing', 'main')).catch((e) => e);
    expect(missing).toBeInstanceOf(HubApiError);
    expect((missing as HubApiError).isNotFound).toBe(true);
  });
});
