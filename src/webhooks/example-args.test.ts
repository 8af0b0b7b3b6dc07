import { describe, expect, it } from 'vitest';
import { parseExampleArgs } from './example-args.ts';

describe('npm run webhooks:example flags', () => {
  it('defaults to 127.0.0.1:7860; --port=N and --port N both work', () => {
    expect(parseExampleArgs([])).toEqual({ port: 7860, host: '127.0.0.1' });
    expect(parseExampleArgs(['--port=8080'])).toEqual({ port: 8080, host: '127.0.0.1' });
    expect(parseExampleArgs(['--port', '0', '--host', '::1'])).toEqual({ port: 0, host: '::1' });
  });

  it('--store names the delivery store folder', () => {
    expect(parseExampleArgs(['--store', '.data/webhooks'])).toEqual({
      port: 7860,
      host: '127.0.0.1',
      store: '.data/webhooks',
    });
    expect(() => parseExampleArgs(['--store'])).toThrow('--store needs a value');
  });

  it('names a bad port, an unknown or a misspelt flag', () => {
    expect(() => parseExampleArgs(['--port', '70000'])).toThrow('--port must be an integer 0..65535, got "70000"');
    expect(() => parseExampleArgs(['--hots', 'x'])).toThrow('unknown option --hots (did you mean --host?)');
  });
});
