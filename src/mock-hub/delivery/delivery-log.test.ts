import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DELIVERY_LOG_LIMIT, DELIVERY_PAYLOAD_LIMIT_BYTES, WebhookDelivery } from '../../hub/schemas/webhook-log.ts';
import {
  cutUtf8,
  insertLogEntry,
  logSummary,
  MASKED,
  maskHeaders,
  replayablePayload,
  requestRecord,
} from './delivery-log.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('delivery log helpers', () => {
  const entry = (id: string, createdAt: string) => ({
    id,
    createdAt,
    event: { action: 'update', scope: 'repo' },
    target: 'u',
    status: 200,
    error: null,
    durationMs: 1,
  });

  it('keeps the log newest first by start time even when deliveries finish out of order, and caps it', () => {
    let list = insertLogEntry([], entry('1', '2026-01-01T00:00:01Z'), 3);
    list = insertLogEntry(list, entry('3', '2026-01-01T00:00:03Z'), 3);
    list = insertLogEntry(list, entry('2', '2026-01-01T00:00:02Z'), 3);
    expect(list.map((e) => e.id)).toEqual(['3', '2', '1']);
    list = insertLogEntry(list, entry('4', '2026-01-01T00:00:04Z'), 3);
    expect(list.map((e) => e.id)).toEqual(['4', '3', '2']);
  });

  it('keeps the last 50 deliveries per webhook by default', () => {
    let list: ReturnType<typeof entry>[] = [];
    for (let i = 0; i < 60; i++)
      list = insertLogEntry(list, entry(String(i), new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()));
    expect(list).toHaveLength(DELIVERY_LOG_LIMIT);
    expect(list[0]!.id).toBe('59');
    expect(list.at(-1)!.id).toBe('10');
  });

  it('cuts UTF-8 at the byte limit on a character boundary, never splitting a character', () => {
    expect(cutUtf8(utf8('hello'), 10)).toEqual({ text: 'hello', truncated: false });
    expect(cutUtf8(utf8('hello'), 5)).toEqual({ text: 'hello', truncated: false });
    expect(cutUtf8(utf8('hello'), 4)).toEqual({ text: 'hell', truncated: true });
    // "é" is two bytes, "€" three, "😀" four: a limit inside one leaves it out whole.
    expect(cutUtf8(utf8('aé'), 2)).toEqual({ text: 'a', truncated: true });
    expect(cutUtf8(utf8('a€b'), 3)).toEqual({ text: 'a', truncated: true });
    expect(cutUtf8(utf8('😀x'), 3)).toEqual({ text: '', truncated: true });
    expect(cutUtf8(utf8('😀x'), 4)).toEqual({ text: '😀', truncated: true });
    // Bytes that are not UTF-8 are replaced, never thrown on.
    expect(cutUtf8(new Uint8Array([0xff, 0x41]), 10).text).toBe('\uFFFDA');
  });

  it('every cut is a prefix of the text within the limit, and at most 3 bytes short of it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.integer({ min: 0, max: 120 }), (text, limit) => {
        const bytes = utf8(text);
        const cut = cutUtf8(bytes, limit);
        const kept = utf8(cut.text).length;
        expect(text.startsWith(cut.text)).toBe(true);
        expect(cut.truncated).toBe(bytes.length > limit);
        expect(kept).toBeLessThanOrEqual(limit);
        if (cut.truncated) expect(kept).toBeGreaterThanOrEqual(limit - 3);
        else expect(cut.text).toBe(text);
      }),
    );
  });

  it('masks the secret header, whatever its case, and nothing else', () => {
    expect(
      maskHeaders({ 'content-type': 'application/json', 'X-Webhook-Secret': 's3cret', authorization: 'Bearer hf_x' }),
    ).toEqual({
      'content-type': 'application/json',
      'X-Webhook-Secret': MASKED,
      authorization: MASKED,
    });
  });

  it('records the payload as sent, cut at the limit, with its whole size', () => {
    const small = requestRecord({ 'x-webhook-secret': 'abc' }, '{"a":1}');
    expect(small).toEqual({
      headers: { 'x-webhook-secret': MASKED },
      payload: '{"a":1}',
      payloadBytes: 7,
      payloadTruncated: false,
    });
    expect(JSON.stringify(small)).not.toContain('abc');
    const big = JSON.stringify({ content: 'é'.repeat(DELIVERY_PAYLOAD_LIMIT_BYTES) });
    const cut = requestRecord({}, big);
    expect(cut.payloadTruncated).toBe(true);
    expect(cut.payloadBytes).toBe(utf8(big).length);
    expect(utf8(cut.payload).length).toBeLessThanOrEqual(DELIVERY_PAYLOAD_LIMIT_BYTES);
    expect(big.startsWith(cut.payload)).toBe(true);
  });

  it('replays only a payload kept whole; the list shows records without request and response', () => {
    const base = { ...entry('1', '2026-01-01T00:00:01Z'), response: null };
    const whole = WebhookDelivery.parse({ ...base, request: requestRecord({}, '{"a":1}') });
    expect(replayablePayload(whole)).toBe('{"a":1}');
    expect(replayablePayload({ ...whole, request: requestRecord({}, '{"a":1}', 3) })).toBeUndefined();
    expect(replayablePayload(WebhookDelivery.parse(entry('2', '2026-01-01T00:00:01Z')))).toBeUndefined();
    expect(replayablePayload(undefined)).toBeUndefined();
    expect(logSummary(whole)).toEqual(entry('1', '2026-01-01T00:00:01Z'));
  });
});
