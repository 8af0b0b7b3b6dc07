import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WebhookInput } from '../../hub/schemas/webhook.ts';
import { toJsonSchema, validSamples } from './json-schema.ts';
import { REMOVE, applyMutation, mutationsOf } from './mutations.ts';

const Small = z.strictObject({
  name: z.string().min(1).max(5),
  id: z.string().regex(/^[0-9a-f]{4}$/),
  n: z.number().int().min(1).max(3),
  tags: z
    .array(z.enum(['a', 'b']))
    .min(1)
    .max(2),
  note: z.string().optional(),
});

describe('hardening generators', () => {
  it('samples only values the zod schema accepts, spread over the optional fields', () => {
    const samples = validSamples(WebhookInput, toJsonSchema(WebhookInput), 6);
    expect(samples.length).toBe(6);
    for (const s of samples) expect(WebhookInput.safeParse(s).success).toBe(true);
    // The greedy pick reaches the nested job fields, not just the url variant.
    expect(samples.some((s) => (s as { job?: unknown }).job !== undefined)).toBe(true);
  });

  it('breaks one spot per mutation, each rejected by the schema for the stated reason', () => {
    const base = { name: 'ab', id: '00ff', n: 2, tags: ['a'] };
    expect(Small.safeParse(base).success).toBe(true);
    const muts = mutationsOf(base, toJsonSchema(Small));
    const kinds = new Set(muts.map((m) => m.kind));
    for (const k of [
      'wrong-type',
      'missing-required',
      'unknown-field',
      'out-of-range',
      'not-integer',
      'bad-pattern',
      'bad-enum',
      'over-long',
      'too-short',
      'too-few-items',
      'too-many-items',
    ]) {
      expect([...kinds]).toContain(k);
    }
    for (const m of muts) {
      const broken = applyMutation(base, m);
      expect(Small.safeParse(broken).success, `${m.kind} ${m.path.join('.')}`).toBe(false);
    }
    expect(base).toEqual({ name: 'ab', id: '00ff', n: 2, tags: ['a'] }); // the base is never modified
  });

  it('sets __proto__ as a plain own key and removes keys for missing-required', () => {
    const proto = applyMutation({ a: 1 }, { kind: 'unknown-field', path: ['__proto__'], value: 1 });
    expect(JSON.stringify(proto)).toBe('{"a":1,"__proto__":1}');
    expect(applyMutation({ a: 1, b: 2 }, { kind: 'missing-required', path: ['b'], value: REMOVE })).toEqual({ a: 1 });
  });
});
