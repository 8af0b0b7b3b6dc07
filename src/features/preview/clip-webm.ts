// A decoded clip as a WebM file, made in the browser: WebCodecs' VideoEncoder (VP9, else VP8) through
// mediabunny, which also writes the container. Frame i starts at i / fps seconds and lasts 1 / fps.
import {
  BufferTarget,
  Output,
  QUALITY_HIGH,
  VideoSample,
  VideoSampleSource,
  WebMOutputFormat,
  getFirstEncodableVideoCodec,
} from 'mediabunny';

/** frames of RGBA bytes, width * height * 4 each */
export interface Clip {
  readonly width: number;
  readonly height: number;
  readonly frames: readonly Uint8ClampedArray[];
}

/** what is wrong with a clip, naming the field, or null */
export function clipError({ width, height, frames }: Clip): string | null {
  for (const [name, v] of Object.entries({ width, height }))
    if (!Number.isInteger(v) || v < 1) return `clip.${name} must be a positive whole number (got ${v}).`;
  if (!frames.length) return 'clip.frames is empty: there is no frame to show.';
  const bad = frames.findIndex((f) => f.length !== width * height * 4);
  if (bad >= 0)
    return `clip.frames[${bad}] holds ${frames[bad]!.length} bytes; ${width} x ${height} RGBA takes ${width * height * 4}.`;
  return null;
}

/** why this browser cannot make WebM, or null where it has a VideoEncoder */
export function webmUnsupported(): string | null {
  return typeof VideoEncoder === 'undefined' ? 'This browser has no WebCodecs VideoEncoder to make WebM with.' : null;
}

export async function encodeWebm(clip: Clip, fps: number): Promise<Blob> {
  const error =
    clipError(clip) ?? (fps > 0 && fps <= 120 ? webmUnsupported() : `fps must be in (0, 120] (got ${fps}).`);
  if (error) throw new Error(error);
  const { width, height } = clip;
  const size = { codedWidth: width, codedHeight: height };
  const codec = await getFirstEncodableVideoCodec(['vp9', 'vp8'], { width, height });
  if (!codec) throw new Error(`This browser encodes neither VP9 nor VP8 at ${width} x ${height}.`);
  const output = new Output({ format: new WebMOutputFormat(), target: new BufferTarget() });
  const source = new VideoSampleSource({ codec, quality: QUALITY_HIGH });
  output.addVideoTrack(source, { frameRate: fps });
  await output.start();
  try {
    for (const [i, data] of clip.frames.entries()) {
      const sample = new VideoSample(data, { format: 'RGBA', ...size, timestamp: i / fps, duration: 1 / fps });
      await source.add(sample);
      sample.close();
    }
    await output.finalize();
  } catch (e) {
    await output.cancel();
    throw e;
  }
  return new Blob([output.target.buffer!], { type: 'video/webm' });
}
