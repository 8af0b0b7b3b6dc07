import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Avatar } from './avatar.tsx';
import { Button } from './button.tsx';
import { cn } from './cn.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

const classOf = (html: string) => /class="([^"]*)"/.exec(html)?.[1]?.split(' ') ?? [];

describe('shared UI class names', () => {
  it('cn: the later of two conflicting utilities wins, conditionals drop out, others stay', () => {
    const hidden = (on: boolean) => on && 'hidden';
    expect(cn('px-3 py-1.5', hidden(false), 'px-1')).toBe('py-1.5 px-1');
    expect(cn('bg-amber-500 hover:bg-amber-400', ['bg-red-700'], { 'text-sm': true, 'text-lg': false })).toBe(
      'hover:bg-amber-400 bg-red-700 text-sm',
    );
  });

  it("a caller's class beats the component's default instead of racing it", () => {
    const button = classOf(renderToStaticMarkup(<Button className="px-1 w-full">Go</Button>));
    expect(button).toContain('px-1');
    expect(button).not.toContain('px-3');
    expect(button).toContain('py-1.5');
    const avatar = classOf(renderToStaticMarkup(<Avatar name="alice" className="h-10 w-10" />));
    expect(avatar).toEqual(expect.arrayContaining(['h-10', 'w-10', 'text-[10px]']));
    expect(avatar).not.toContain('h-6');
  });

  it('two dialogs on one page label themselves with distinct ids', () => {
    const noop = () => {};
    const html = renderToStaticMarkup(
      <>
        <ConfirmDialog open={false} title="One" confirmLabel="OK" onConfirm={noop} onCancel={noop} />
        <ConfirmDialog open={false} title="Two" confirmLabel="OK" onConfirm={noop} onCancel={noop} />
      </>,
    );
    const labelled = [...html.matchAll(/aria-labelledby="([^"]+)"/g)].map((m) => m[1]);
    const ids = [...html.matchAll(/<h2 id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(labelled).size).toBe(2);
    expect(ids).toEqual(labelled);
  });
});
