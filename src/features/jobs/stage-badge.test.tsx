import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { JOB_STAGES, type JobStage } from '../../hub/schemas/index.ts';
import { StageBadge } from './stage-badge.tsx';

const escaped = (text: string) => renderToStaticMarkup(<>{text}</>);

describe('StageBadge', () => {
  it('shows a stage the spec does not list (the real hub’s UPDATING...) as its raw value in a neutral pill', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (stage) => {
        fc.pre(!(JOB_STAGES as readonly string[]).includes(stage));
        const html = renderToStaticMarkup(<StageBadge stage={stage as JobStage} />);
        expect(html).toContain('data-testid="unknown-value"');
        expect(html).toContain(escaped(stage));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps the known stages as they were', () => {
    for (const stage of JOB_STAGES)
      expect(renderToStaticMarkup(<StageBadge stage={stage} />)).toContain(`data-stage="${stage}"`);
  });
});
