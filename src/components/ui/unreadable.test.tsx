import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { isUnreadable, readItem } from '../../hub/tolerant-response.ts';
import { Job } from '../../hub/schemas/index.ts';
import { UnreadableItems, UnreadableRecord } from './unreadable.tsx';

const escaped = (text: string) => renderToStaticMarkup(<>{text}</>);

describe('the unreadable row', () => {
  it('says which field and why for any item, with its raw JSON one click away (in a closed details)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (raw) => {
        const item = readItem(Job, raw);
        if (!isUnreadable(item)) return;
        const html = renderToStaticMarkup(<UnreadableItems items={[item]} what="job" />);
        const issue = item.issues[0]!;
        expect(html).toContain('1 job could not be read');
        expect(html).toContain(escaped(issue.path || '(the whole record)'));
        expect(html).toMatch(/<details[^>]*><summary[^>]*>Raw JSON<\/summary>/);
        expect(html).toContain(escaped(JSON.stringify(raw, null, 2) ?? String(raw)));
      }),
      { numRuns: 60 },
    );
  });

  it('renders nothing when every item read', () => {
    expect(renderToStaticMarkup(<UnreadableItems items={[]} what="job" />)).toBe('');
  });

  it('a detail page shows every field that could be read next to the issues', () => {
    const html = renderToStaticMarkup(
      <UnreadableRecord
        issues={[{ path: 'status', message: 'Invalid input' }]}
        raw={{ id: 'j1', status: 'RUNNING' }}
        fields={{ id: 'j1', flavor: 'cpu-basic' }}
      />,
    );
    expect(html).toContain('<code>status</code>: Invalid input');
    expect(html).toMatch(/<dt[^>]*>id<\/dt><dd[^>]*><span[^>]*>j1<\/span>/);
    expect(html).toMatch(/<dt[^>]*>flavor<\/dt><dd[^>]*><span[^>]*>cpu-basic<\/span>/);
  });
});
