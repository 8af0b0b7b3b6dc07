// The decoded clip, frame by frame (a stand-in for the player with playback and downloads).
import { useEffect, useRef, useState } from 'react';

export function ClipPlayer({
  clip,
  fileName,
}: {
  clip: { width: number; height: number; frames: readonly Uint8ClampedArray[] };
  fileName: string;
}) {
  const [frame, setFrame] = useState(0);
  const ref = useRef<HTMLCanvasElement>(null);
  const n = clip.frames.length;
  const f = Math.min(frame, n - 1);
  useEffect(() => {
    const rgba = clip.frames[f] as Uint8ClampedArray<ArrayBuffer>;
    ref.current?.getContext('2d')?.putImageData(new ImageData(rgba, clip.width, clip.height), 0, 0);
  }, [clip, f]);
  return (
    <div className="space-y-2" data-testid="clip-player" title={fileName}>
      <canvas
        ref={ref}
        width={clip.width}
        height={clip.height}
        role="img"
        aria-label={`Decoded clip, Frame ${f + 1} of ${n}`}
      />
      <input
        type="range"
        aria-label="Frame"
        min={0}
        max={n - 1}
        value={f}
        onChange={(e) => setFrame(+e.target.value)}
      />
    </div>
  );
}
