// The decoder's modules as diffusers' CogVideoXDecoder3D builds them from the config, and the
// parameter names and shapes they imply. The graph builder and the weight check read this one list.
import { parameterMismatches } from '../../graph/parameters.ts';
import { temporalLevels, type VaeConfig } from './config.ts';

export interface ResnetLayout {
  prefix: string;
  inChannels: number;
  outChannels: number;
}

export interface UpBlockLayout {
  prefix: string;
  resnets: ResnetLayout[];
  /** the block ends with a CogVideoXUpsample3D; compressTime: it doubles time too */
  upsample: { prefix: string; channels: number; compressTime: boolean } | null;
}

export interface DecoderLayout {
  latentChannels: number;
  outChannels: number;
  groups: number;
  convIn: { prefix: string; inChannels: number; outChannels: number };
  mid: ResnetLayout[];
  up: UpBlockLayout[];
  normOut: { prefix: string; channels: number };
  convOut: { prefix: string; inChannels: number; outChannels: number };
}

export function decoderLayout(c: VaeConfig): DecoderLayout {
  const rev = [...c.block_out_channels].reverse();
  const top = rev[0]!;
  const mid = [0, 1].map((i) => ({ prefix: `decoder.mid_block.resnets.${i}`, inChannels: top, outChannels: top }));
  let out = top;
  const up = rev.map((channels, i): UpBlockLayout => {
    const prev = out;
    out = channels;
    const prefix = `decoder.up_blocks.${i}`;
    const resnets = Array.from({ length: c.layers_per_block + 1 }, (_, j) => ({
      prefix: `${prefix}.resnets.${j}`,
      inChannels: j === 0 ? prev : channels,
      outChannels: channels,
    }));
    const last = i === rev.length - 1;
    return {
      prefix,
      resnets,
      upsample: last ? null : { prefix: `${prefix}.upsamplers.0`, channels, compressTime: i < temporalLevels(c) },
    };
  });
  const bottom = rev[rev.length - 1]!;
  return {
    latentChannels: c.latent_channels,
    outChannels: c.out_channels,
    groups: c.norm_num_groups,
    convIn: { prefix: 'decoder.conv_in', inChannels: c.latent_channels, outChannels: top },
    mid,
    up,
    normOut: { prefix: 'decoder.norm_out', channels: bottom },
    convOut: { prefix: 'decoder.conv_out', inChannels: bottom, outChannels: c.out_channels },
  };
}

/** the decoder's parameters (diffusers names) and their shapes */
export function decoderParameters(c: VaeConfig): Map<string, number[]> {
  const m = new Map<string, number[]>();
  const z = c.latent_channels;
  const conv3d = (p: string, o: number, i: number, k: number) => {
    m.set(`${p}.weight`, [o, i, k, k, k]);
    m.set(`${p}.bias`, [o]);
  };
  const spatialNorm = (p: string, ch: number) => {
    m.set(`${p}.norm_layer.weight`, [ch]);
    m.set(`${p}.norm_layer.bias`, [ch]);
    conv3d(`${p}.conv_y.conv`, ch, z, 1);
    conv3d(`${p}.conv_b.conv`, ch, z, 1);
  };
  const resnet = (r: ResnetLayout) => {
    spatialNorm(`${r.prefix}.norm1`, r.inChannels);
    conv3d(`${r.prefix}.conv1.conv`, r.outChannels, r.inChannels, 3);
    spatialNorm(`${r.prefix}.norm2`, r.outChannels);
    conv3d(`${r.prefix}.conv2.conv`, r.outChannels, r.outChannels, 3);
    if (r.inChannels !== r.outChannels) conv3d(`${r.prefix}.conv_shortcut`, r.outChannels, r.inChannels, 1);
  };
  const l = decoderLayout(c);
  conv3d(`${l.convIn.prefix}.conv`, l.convIn.outChannels, l.convIn.inChannels, 3);
  l.mid.forEach(resnet);
  for (const b of l.up) {
    b.resnets.forEach(resnet);
    if (b.upsample) {
      m.set(`${b.upsample.prefix}.conv.weight`, [b.upsample.channels, b.upsample.channels, 3, 3]);
      m.set(`${b.upsample.prefix}.conv.bias`, [b.upsample.channels]);
    }
  }
  spatialNorm(l.normOut.prefix, l.normOut.channels);
  conv3d(`${l.convOut.prefix}.conv`, l.convOut.outChannels, l.convOut.inChannels, 3);
  return m;
}

export class VaeWeightsError extends Error {
  override name = 'VaeWeightsError';
}

/**
 * One error listing every missing, unexpected and misshapen decoder parameter. The encoder's
 * parameters (and anything outside `decoder.`) are not the decoder's business and are ignored.
 */
export function checkDecoderParameters(
  c: VaeConfig,
  actual: ReadonlyMap<string, readonly number[]>,
  source: string,
): void {
  const parts = parameterMismatches(decoderParameters(c), actual, { own: (k) => k.startsWith('decoder.'), shown: 20 });
  if (parts.length)
    throw new VaeWeightsError(`decoder weights in ${source} do not match the config:\n  - ${parts.join('\n  - ')}`);
}
