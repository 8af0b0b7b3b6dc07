import { describe, expect, it } from 'vitest';
import { samplePayload } from '../../webhooks/sample-payload.ts';
import { insertLogEntry, PayloadArchive } from './delivery-log.ts';

describe('delivery log helpers', () => {
  const entry = (id: string, createdAt: string) => ({ id, createdAt, event: { action: 'update', scope: 'repo' }, target: 'u', status: 200, error: null, durationMs: 1 });

  it('keeps the log newest first by start time even when deliveries finish out of order, and caps it', () => {
    let list = insertLogEntry([], entry('1', '2026-01-01T00:00:01Z'), 3);
    list = insertLogEntry(list, entry('3', '2026-01-01T00:00:03Z'), 3);
    list = insertLogEntry(list, entry('2', '2026-01-01T00:00:02Z'), 3);
    expect(list.map((e) => e.id)).toEqual(['3', '2', '1']);
    list = insertLogEntry(list, entry('4', '2026-01-01T00:00:04Z'), 3);
    expect(list.map((e) => e.id)).toEqual(['4', '3', '2']);
  });

  it('archives payloads for replay, dropping the oldest beyond its bound', () => {
    const archive = new PayloadArchive(2);
    archive.keep('a', samplePayload());
    archive.keep('b', samplePayload());
    archive.keep('c', samplePayload());
    expect(archive.get('a')).toBeUndefined();
    expect(archive.get('c')).toEqual(samplePayload());
  });
});
