import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SelectField, optionsOf } from './select.tsx';

describe('SelectField', () => {
  it('labels its select and lists the options in order, the value chosen', () => {
    const html = renderToStaticMarkup(
      <SelectField
        label="Repository type"
        value="dataset"
        onValueChange={() => {}}
        options={[{ value: '', label: 'All types' }, ...optionsOf(['model', 'dataset'] as const)]}
      />,
    );
    const id = /<select[^>]* id="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`<label for="${id}"`);
    expect(html).toContain('>Repository type</label>');
    expect(
      [...html.matchAll(/<option value="([^"]*)"( selected="")?>([^<]*)<\/option>/g)].map((m) => [
        m[1],
        Boolean(m[2]),
        m[3],
      ]),
    ).toEqual([
      ['', false, 'All types'],
      ['model', false, 'model'],
      ['dataset', true, 'dataset'],
    ]);
  });
});
