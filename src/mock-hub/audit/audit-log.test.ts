import { describe, expect, it } from 'vitest';
import { AuditLogEvent } from '../../hub/schemas/index.ts';
import { createAuditLog } from './audit-log.ts';

const parse = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b)) as AuditLogEvent[];

const extra: AuditLogEvent = {
  _id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  createdAt: '2026-11-05T00:00:00.000Z',
  type: 'resource_group.create',
  message: 'alice created resource group X',
  author: { _id: 'bbbbbbbbbbbbbbbbbbbbbbbb', user: 'alice', avatarUrl: 'a', type: 'user' },
};

describe('audit export body', () => {
  it('puts extra events first and caps the total', () => {
    const log = createAuditLog();
    const body = parse(log.exportBody('teamco', undefined, [extra]));
    expect(body[0]).toEqual(extra);
    expect(body).toHaveLength(2_501);
  });

  it('ANDs terms; contradictory terms match nothing; the empty result is []', () => {
    const log = createAuditLog();
    const both = parse(log.exportBody('teamco', 'author:alice type:org.create', []));
    expect(both.every((e) => e.author.user === 'alice' && e.type === 'org.create')).toBe(true);
    expect(parse(log.exportBody('teamco', 'author:alice author:bob', []))).toEqual([]);
    expect(new TextDecoder().decode(log.exportBody('teamco', 'ip:1.2.3.4', []))).toBe('[]');
    const typed = parse(log.exportBody('teamco', 'type:resource_group.create', [extra]));
    expect(typed[0]).toEqual(extra);
    expect(typed.every((e) => e.type === 'resource_group.create')).toBe(true);
    expect(parse(log.exportBody('teamco', 'type:org.create', [extra])).some((e) => e._id === extra._id)).toBe(false);
  });

  it('non-contiguous picks produce valid JSON', () => {
    const log = createAuditLog();
    const list = parse(log.exportBody('freeorg', 'type:repo.create', []));
    for (const e of list) expect(AuditLogEvent.parse(e).type).toBe('repo.create');
  });
});
