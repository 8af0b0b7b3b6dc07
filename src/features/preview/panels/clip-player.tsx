// The decoded clip as a person watches it: the frame on a canvas, play/pause (the button, or Space on the
// canvas), a frame scrubber and a frame rate; it loops, and saves the clip as WebM or the frame shown as PNG.
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { describeError } from '../../../components/ui/describe-error.ts';
import { saveBlob } from '../../../components/ui/save-text.ts';
import { SelectField } from '../../../components/ui/select.tsx';
import { clipError, encodeWebm, webmUnsupported, type Clip } from '../clip-webm.ts';

const FRAME_RATES = [4, 8, 12, 24].map((r) => ({ value: String(r), label: `${r} fps` }));
/** ConsisID's pipeline exports its clips at 8 frames per second */
const DEFAULT_FPS = 8;
/** small frames are drawn scaled up by a whole factor, to about this many CSS pixels on the longer side */
const VIEW_SIZE = 384;

export function ClipPlayer({ clip, fileName }: { clip: Clip; fileName: string }) {
  const error = clipError(clip);
  if (error)
    return (
      <p role="alert" className="text-sm text-danger">
        {error}
      </p>
    );
  return <Player clip={clip} fileName={fileName} />;
}

function Player({ clip, fileName }: { clip: Clip; fileName: string }) {
  const { width, height, frames } = clip;
  const n = frames.length;
  const [frame, setFrame] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [fps, setFps] = useState(DEFAULT_FPS);
  const [webm, setWebm] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const canvas = useRef<HTMLCanvasElement>(null);
  const f = Math.min(frame, n - 1);
  useEffect(() => {
    const rgba = frames[f] as Uint8ClampedArray<ArrayBuffer>;
    canvas.current?.getContext('2d')?.putImageData(new ImageData(rgba, width, height), 0, 0);
  }, [frames, f, width, height]);
  useEffect(() => {
    if (!playing || n < 2) return;
    const timer = setInterval(() => setFrame((x) => (Math.min(x, n - 1) + 1) % n), 1000 / fps);
    return () => clearInterval(timer);
  }, [playing, n, fps]);

  const toggle = () => setPlaying((p) => !p);
  const savePng = () => canvas.current?.toBlob((b) => b && saveBlob(b, `${fileName}-frame-${f + 1}.png`), 'image/png');
  const saveWebm = async () => {
    setWebm({ busy: true });
    try {
      saveBlob(await encodeWebm(clip, fps), `${fileName}.webm`);
      setWebm({ busy: false });
    } catch (e) {
      setWebm({ busy: false, error: `The WebM could not be made: ${describeError(e).message}` });
    }
  };
  const noWebm = webmUnsupported();
  const label = `Frame ${f + 1} of ${n}`;
  const scale = Math.max(1, Math.floor(VIEW_SIZE / Math.max(width, height)));
  return (
    <div className="space-y-2" data-testid="clip-player">
      <canvas
        ref={canvas}
        width={width}
        height={height}
        role="img"
        aria-label={`Decoded clip, ${label}`}
        tabIndex={0}
        aria-keyshortcuts="Space"
        onKeyDown={(e) => {
          if (e.key !== ' ') return;
          e.preventDefault();
          toggle();
        }}
        style={{ width: width * scale, imageRendering: 'pixelated' }}
        className="h-auto max-w-full rounded border border-border-strong focus-visible:outline-2 focus-visible:outline-focus"
      />
      <div className="flex flex-wrap items-end gap-3">
        <Button onClick={toggle} disabled={n < 2}>
          {playing ? 'Pause' : 'Play'}
        </Button>
        <div className="flex items-center gap-2 pb-1.5">
          <input
            type="range"
            aria-label="Frame"
            aria-valuetext={label}
            min={0}
            max={n - 1}
            value={f}
            disabled={n < 2}
            onChange={(e) => {
              setPlaying(false);
              setFrame(Number(e.target.value));
            }}
          />
          <span className="text-sm tabular-nums">{label}</span>
        </div>
        <SelectField label="Frame rate" value={String(fps)} options={FRAME_RATES} onValueChange={(v) => setFps(+v)} />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={savePng}>Download frame (.png)</Button>
        <Button onClick={() => void saveWebm()} disabled={Boolean(noWebm) || webm.busy} title={noWebm ?? undefined}>
          {webm.busy ? 'Encoding WebM…' : 'Download clip (.webm)'}
        </Button>
        {noWebm && <span className="text-xs text-muted">{noWebm}</span>}
      </div>
      {webm.error && (
        <p role="alert" className="text-sm text-danger">
          {webm.error}
        </p>
      )}
    </div>
  );
}
