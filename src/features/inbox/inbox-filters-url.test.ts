import { describe, expect, it } from 'vitest';
import { activeFilterCount, readFilters, writeFilters } from './inbox-filters-url.ts';

describe('inbox filters in the URL', () => {
  it('round-trips every shared parameter and the page', () => {
    const filters = {
      readStatus: 'unread',
      repoType: 'model',
      repoName: 'acme/x',
      postAuthor: 'dave',
      paperId: 'p',
      articleId: 'a',
      mention: 'mentions',
      lastUpdate: '2026-01-01T00:00:00.000Z',
    } as const;
    const params = writeFilters(filters, 3);
    expect(readFilters(new URLSearchParams(params.toString()))).toEqual({ filters, page: 3, invalid: [] });
  });

  it('leaves defaults and page 0 out of the URL', () => {
    expect(writeFilters({ readStatus: 'all', mention: 'all' }, 0).toString()).toBe('');
    expect(activeFilterCount({ readStatus: 'all', repoType: 'space' })).toBe(1);
  });

  it('drops values the schema refuses and reports them', () => {
    const r = readFilters(new URLSearchParams('repoType=car&lastUpdate=yesterday&p=-1&readStatus=unread'));
    expect(r.filters).toEqual({ readStatus: 'unread' });
    expect(r.page).toBe(0);
    expect(r.invalid.sort()).toEqual(['lastUpdate', 'p', 'repoType']);
  });
});
