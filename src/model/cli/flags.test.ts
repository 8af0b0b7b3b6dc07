import { describe, expect, it } from 'vitest';
import { HelpRequested, parseFlags, UsageError } from './flags.ts';

const known = { values: ['model', 'out', 'threads'], switches: ['external-data', 'no-external-data'] } as const;

describe('consisid flags', () => {
  it('reads values (--name v, --name=v), switches, and says which required one is missing', () => {
    const f = parseFlags(['--model', 'a/b', '--out=x.onnx', '--external-data'], known);
    expect([
      f.get('model'),
      f.need('out'),
      f.get('threads'),
      f.has('external-data'),
      f.has('no-external-data'),
    ]).toEqual(['a/b', 'x.onnx', undefined, true, false]);
    expect(() => f.need('threads')).toThrow(new UsageError('--threads is required'));
  });

  it('refuses unknown and misspelt options, stray arguments and missing values', () => {
    expect(() => parseFlags(['--modle', 'x'], known)).toThrow(
      new UsageError('unknown option --modle (did you mean --model?)'),
    );
    expect(() => parseFlags(['model'], known)).toThrow(new UsageError('unexpected argument "model"'));
    expect(() => parseFlags(['--out'], known)).toThrow(new UsageError('--out needs a value'));
    expect(() => parseFlags(['--help'], known)).toThrow(HelpRequested);
  });
});
