// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Clip } from '../clip-webm.ts';
import { ClipPlayer } from './clip-player.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** frame i's bytes all hold i, so a drawn frame says which it is */
const clip = (n: number, width = 2, height = 3): Clip => ({
  width,
  height,
  frames: Array.from({ length: n }, (_, i) => new Uint8ClampedArray(width * height * 4).fill(i)),
});

let root: Root;
let host: HTMLDivElement;
let drawn: number[];

beforeEach(() => {
  vi.useFakeTimers();
  drawn = [];
  // the DOM here draws nothing: the canvas context records which frame is put on it
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
    putImageData: (img: { data: Uint8ClampedArray }) => drawn.push(img.data[0]!),
  } as never);
  vi.stubGlobal(
    'ImageData',
    class {
      constructor(readonly data: Uint8ClampedArray) {}
    },
  );
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const render = (c: Clip, fileName = 'clip') => act(() => root.render(<ClipPlayer clip={c} fileName={fileName} />));
const button = (name: RegExp) => [...host.querySelectorAll('button')].find((b) => name.test(b.textContent ?? ''))!;
const scrubber = () => host.querySelector<HTMLInputElement>('input[type=range]')!;
const frameRate = () => host.querySelector('select')!;
const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const shown = () => drawn.at(-1);

/** sets a form control's value the way a person does, so React sees the change */
function change(el: HTMLInputElement | HTMLSelectElement, value: string) {
  const proto = Object.getPrototypeOf(el) as object;
  act(() => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}

describe('ClipPlayer', () => {
  it('shows the first frame, paused, with a labelled scrubber at 8 fps', () => {
    render(clip(3));
    expect(shown()).toBe(0);
    expect(button(/^Play$/)).toBeTruthy();
    expect(scrubber().getAttribute('aria-label')).toBe('Frame');
    expect(scrubber().getAttribute('aria-valuetext')).toBe('Frame 1 of 3');
    expect(scrubber().max).toBe('2');
    expect(frameRate().value).toBe('8');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('plays at the frame rate, loops, and pauses', () => {
    render(clip(3));
    act(() => button(/^Play$/).click());
    tick(124);
    expect(shown()).toBe(0);
    tick(1);
    expect(shown()).toBe(1);
    tick(250);
    expect(shown()).toBe(0); // after the last frame, the first
    act(() => button(/^Pause$/).click());
    tick(1000);
    expect(shown()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('Space on the canvas plays and pauses', () => {
    render(clip(4));
    const canvas = host.querySelector('canvas')!;
    const space = () => act(() => canvas.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true })));
    space();
    tick(125);
    expect(shown()).toBe(1);
    space();
    tick(500);
    expect(shown()).toBe(1);
  });

  it('the scrubber shows the frame chosen and pauses the clip', () => {
    render(clip(5));
    act(() => button(/^Play$/).click());
    change(scrubber(), '3');
    expect(shown()).toBe(3);
    expect(scrubber().getAttribute('aria-valuetext')).toBe('Frame 4 of 5');
    expect(button(/^Play$/)).toBeTruthy();
    tick(1000);
    expect(shown()).toBe(3);
  });

  it('a new frame rate changes the pace of playback', () => {
    render(clip(10));
    change(frameRate(), '24');
    act(() => button(/^Play$/).click());
    tick(1000 / 24);
    expect(shown()).toBe(1);
    change(frameRate(), '4');
    tick(249);
    expect(shown()).toBe(1);
    tick(1);
    expect(shown()).toBe(2);
  });

  it('unmounting while playing stops the timer', () => {
    render(clip(3));
    act(() => button(/^Play$/).click());
    expect(vi.getTimerCount()).toBe(1);
    act(() => root.unmount());
    expect(vi.getTimerCount()).toBe(0);
    root = createRoot(host); // for afterEach
  });

  it('a clip that shrinks keeps a frame within it', () => {
    render(clip(5));
    change(scrubber(), '4');
    render(clip(2));
    expect(shown()).toBe(1);
    expect(scrubber().getAttribute('aria-valuetext')).toBe('Frame 2 of 2');
  });

  it('one frame: nothing to play', () => {
    render(clip(1));
    expect(button(/^Play$/).disabled).toBe(true);
    expect(scrubber().disabled).toBe(true);
  });

  it('names the field of a damaged clip instead of drawing it', () => {
    const c = clip(2);
    render({ ...c, frames: [c.frames[0]!, new Uint8ClampedArray(5)] });
    expect(host.querySelector('[role=alert]')?.textContent).toMatch(/^clip\.frames\[1\] holds 5 bytes/);
    expect(host.querySelector('canvas')).toBeNull();
  });

  it('saves the frame shown as <fileName>-frame-<n>.png', () => {
    const saved: string[] = [];
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((cb) => cb(new Blob(['png'])));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    render(clip(4), 'consisid-seed-7');
    change(scrubber(), '2');
    act(() => button(/\.png/).click());
    expect(saved).toEqual(['consisid-seed-7-frame-3.png']);
  });

  it('without a VideoEncoder the WebM button is disabled and says why', () => {
    vi.stubGlobal('VideoEncoder', undefined);
    render(clip(2));
    const webm = button(/\.webm/);
    expect(webm.disabled).toBe(true);
    expect(webm.title).toMatch(/no WebCodecs VideoEncoder/);
    expect(host.textContent).toContain(webm.title);
  });
});
