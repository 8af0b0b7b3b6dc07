import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/cli/command-line.ts';
import { parseHubArgs } from '../src/mock-hub/cli-args.ts';
import { parseServeArgs } from './serve-args.ts';

describe('npm start flags', () => {
  it('defaults: port 4700 on 127.0.0.1, state in .data (or $HUB_DATA_DIR)', () => {
    expect(parseServeArgs([])).toEqual({ port: 4700, host: '127.0.0.1', dataDir: '.data', specOnly: false });
    expect(parseServeArgs([], { HUB_DATA_DIR: '/tmp/hub', PORT: '5000' })).toEqual({
      port: 5000,
      host: '127.0.0.1',
      dataDir: '/tmp/hub',
      specOnly: false,
    });
  });

  it('a flag the user gives wins over the defaults and the environment', () => {
    expect(parseServeArgs(['--data', 'x'], { HUB_DATA_DIR: '/tmp/hub' }).dataDir).toBe('x');
    expect(parseServeArgs(['--port=8080'], { PORT: '5000' }).port).toBe(8080);
    expect(parseServeArgs(['--port', '8080', '--host', '0.0.0.0'])).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '.data',
      specOnly: false,
    });
    expect(parseServeArgs(['--fresh'], { HUB_DATA_DIR: '/tmp/hub' }).dataDir).toBeUndefined();
  });

  it('serves local checkpoint folders given with --repo', () => {
    // a relative folder is the current one's (the root of the repository under vitest)
    expect(parseServeArgs(['--repo', 'me/ckpt=fixtures/consisid/tiny-base', '--fresh']).repoFolders).toEqual([
      { repoId: 'me/ckpt', dir: path.join(process.cwd(), 'fixtures/consisid/tiny-base') },
    ]);
  });

  it('refuses unknown, misspelt and contradictory flags, and bad ports, naming them', () => {
    expect(() => parseServeArgs(['--dat', 'x'])).toThrow(new UsageError('unknown option --dat (did you mean --data?)'));
    expect(() => parseServeArgs(['--no-open'])).toThrow(/unknown option --no-open/);
    expect(() => parseServeArgs(['--fresh', '--data', 'x'])).toThrow(/--fresh and --data/);
    expect(() => parseServeArgs(['--port', 'http'])).toThrow(/--port must be an integer/);
    expect(() => parseServeArgs([], { PORT: 'x' })).toThrow(/PORT must be an integer/);
  });
});

describe('npm run hub flags', () => {
  it('defaults to port 4701 on 127.0.0.1 in memory; flags win; no --fresh here', () => {
    expect(parseHubArgs([])).toEqual({ port: 4701, host: '127.0.0.1', dataDir: undefined, specOnly: false });
    expect(parseHubArgs(['--port=0', '--data', 'd'], { PORT: '9' })).toEqual({
      port: 0,
      host: '127.0.0.1',
      dataDir: 'd',
      specOnly: false,
    });
    expect(() => parseHubArgs(['--fresh'])).toThrow(/unknown option --fresh/);
    expect(() => parseHubArgs(['--prot', '1'])).toThrow('unknown option --prot (did you mean --port?)');
  });
});

describe('--spec-only', () => {
  it('is a switch of both commands, or MOCK_HUB_SPEC_ONLY=1', () => {
    expect(parseHubArgs(['--spec-only']).specOnly).toBe(true);
    expect(parseServeArgs(['--fresh', '--spec-only']).specOnly).toBe(true);
    expect(parseHubArgs([], { MOCK_HUB_SPEC_ONLY: '1' }).specOnly).toBe(true);
    expect(parseServeArgs([], { MOCK_HUB_SPEC_ONLY: '0' }).specOnly).toBe(false);
    expect(() => parseHubArgs(['--spec-only=yes'])).toThrow(/--spec-only takes no value/);
  });
});

describe('--hub-url', () => {
  it('serves no mock hub: the hub URL without a trailing slash, from the flag or $HUB_URL, the flag winning', () => {
    expect(parseServeArgs(['--hub-url', 'https://huggingface.co/'])).toEqual({
      port: 4700,
      host: '127.0.0.1',
      dataDir: undefined,
      specOnly: false,
      hubUrl: 'https://huggingface.co',
    });
    expect(parseServeArgs([], { HUB_URL: 'http://127.0.0.1:4701', PORT: '5000' })).toMatchObject({
      port: 5000,
      hubUrl: 'http://127.0.0.1:4701',
    });
    expect(parseServeArgs(['--hub-url=https://a.example/mirror//'], { HUB_URL: 'https://b.example' }).hubUrl).toBe(
      'https://a.example/mirror',
    );
    // The environment's mock hub settings do not apply to a hub that is not there.
    expect(parseServeArgs([], { HUB_URL: 'https://h.example', HUB_DATA_DIR: 'd', MOCK_HUB_SPEC_ONLY: '1' })).toEqual(
      parseServeArgs(['--hub-url', 'https://h.example']),
    );
    expect(parseServeArgs([], { HUB_URL: '' }).hubUrl).toBeUndefined();
  });

  it('refuses the mock hub flags beside it, and a hub URL that is not a plain http(s) address, naming the flag', () => {
    for (const flag of [['--fresh'], ['--data', 'd'], ['--spec-only'], ['--no-cors'], ['--repo', 'a/b=fixtures']])
      expect(() => parseServeArgs(['--hub-url', 'https://h.example', ...flag])).toThrow(
        new UsageError(`--hub-url serves no mock hub: ${flag[0]} has nothing to act on; drop one`),
      );
    expect(() => parseServeArgs(['--spec-only'], { HUB_URL: 'https://h.example' })).toThrow(/^HUB_URL serves no/);
    expect(() => parseServeArgs(['--hub-url', 'huggingface.co'])).toThrow(/--hub-url must be a full URL/);
    expect(() => parseServeArgs(['--hub-url', 'ftp://h.example'])).toThrow(/--hub-url must start with http/);
    expect(() => parseServeArgs(['--hub-url', 'https://me:hf_secret@h.example'])).toThrow(
      new UsageError('--hub-url must not hold credentials: each user signs in with a token in the console'),
    );
    expect(() => parseServeArgs(['--hub-url', 'https://h.example/?a=1'])).toThrow(/no.*query/);
    expect(() => parseServeArgs(['--hub-url'])).toThrow('--hub-url needs a value');
  });
});

describe('--no-cors', () => {
  it('is a switch of both commands, set only when given', () => {
    expect(parseHubArgs(['--no-cors']).cors).toBe(false);
    expect(parseServeArgs(['--fresh', '--no-cors']).cors).toBe(false);
    expect(parseHubArgs([])).not.toHaveProperty('cors');
  });
});
