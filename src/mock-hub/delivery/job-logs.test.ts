import { describe, expect, it } from 'vitest';
import { Job } from '../../hub/schemas/job.ts';
import { JobLogBook, MAX_JOBS_WITH_LOGS, MAX_LINES_PER_JOB, logLinesFromRecord } from './job-logs.ts';

const at = new Date('2026-11-01T12:00:00Z');

describe('JobLogBook', () => {
  it('keeps the last lines of a job and forgets the oldest jobs first', () => {
    const book = new JobLogBook();
    for (let i = 0; i < MAX_LINES_PER_JOB + 3; i++) book.append('a', `line ${i}`, at);
    const lines = book.read('a')!;
    expect(lines).toHaveLength(MAX_LINES_PER_JOB);
    expect(lines[0]!.data).toBe('line 3');
    for (let i = 0; i < MAX_JOBS_WITH_LOGS; i++) book.append(`job${i}`, 'x', at);
    expect(book.read('a')).toBeUndefined();
    expect(book.read(`job${MAX_JOBS_WITH_LOGS - 1}`)).toHaveLength(1);
  });

  it('hands new lines to followers until they leave or the job ends', () => {
    const book = new JobLogBook();
    const a: string[] = [];
    const b: string[] = [];
    let ended = 0;
    const leaveA = book.follow('j', { line: (e) => a.push(e.data), end: () => ended++ });
    book.follow('j', { line: (e) => b.push(e.data), end: () => ended++ });
    book.append('j', 'one', at);
    leaveA();
    book.append('j', 'two', at);
    book.end('j');
    book.append('j', 'three', at);
    expect([a, b, ended]).toEqual([['one'], ['one', 'two'], 1]);
  });
});

describe('logLinesFromRecord', () => {
  const base = Job.parse({
    id: 'j',
    createdAt: '2026-11-01T11:00:00Z',
    owner: { id: 'o', name: 'alice' },
    createdBy: { id: 'o', name: 'alice' },
    flavor: 'cpu-basic',
    spaceId: 'alice/app',
    environment: {},
    status: { stage: 'SCHEDULING', message: null },
  });

  it('is empty for a job that never started, and tells the end of one that did', () => {
    expect(logLinesFromRecord(base)).toEqual([]);
    const failed = {
      ...base,
      startedAt: '2026-11-01T11:01:00Z',
      finishedAt: '2026-11-01T11:02:00Z',
      status: { stage: 'ERROR' as const, message: 'out of memory' },
    };
    expect(logLinesFromRecord(failed).map((e) => [e.data, e.timestamp])).toEqual([
      ['===== Job started at 2026-11-01T11:01:00Z =====', '2026-11-01T11:01:00Z'],
      ['Running hf.co/spaces/alice/app', '2026-11-01T11:01:00Z'],
      ['out of memory', '2026-11-01T11:02:00Z'],
    ]);
  });
});
