// A DDIM scheduler as CogVideoX/ConsisID configure it: scaled-linear betas (0.00085 .. 0.012 over
// 1000 training steps) rescaled to zero terminal SNR, "trailing" timestep spacing, v-prediction,
// eta = 0, final alpha 1. Pure functions on Float32Arrays, shared by the worker and the tests.

export interface DdimConfig {
  trainSteps: number;
  betaStart: number;
  betaEnd: number;
  rescaleZeroSnr: boolean;
  prediction: 'v_prediction' | 'epsilon';
}

export const DDIM_DEFAULTS: DdimConfig = {
  trainSteps: 1000,
  betaStart: 0.00085,
  betaEnd: 0.012,
  rescaleZeroSnr: true,
  prediction: 'v_prediction',
};

export function alphasCumprod(cfg: DdimConfig = DDIM_DEFAULTS): Float64Array {
  const n = cfg.trainSteps;
  const acp = new Float64Array(n);
  const a = Math.sqrt(cfg.betaStart);
  const b = Math.sqrt(cfg.betaEnd);
  let prod = 1;
  for (let i = 0; i < n; i++) {
    const s = n === 1 ? a : a + ((b - a) * i) / (n - 1);
    prod *= 1 - s * s;
    acp[i] = prod;
  }
  if (cfg.rescaleZeroSnr) {
    const first = Math.sqrt(acp[0]!);
    const last = Math.sqrt(acp[n - 1]!);
    for (let i = 0; i < n; i++) {
      const v = ((Math.sqrt(acp[i]!) - last) * first) / (first - last);
      acp[i] = v * v;
    }
  }
  return acp;
}

/** "trailing" spacing: round(arange(T, 0, -T / steps)) - 1, e.g. 999, 749, 499, 249 for 4 steps. */
export function ddimTimesteps(steps: number, cfg: DdimConfig = DDIM_DEFAULTS): number[] {
  if (!Number.isInteger(steps) || steps < 1 || steps > cfg.trainSteps)
    throw new Error(`steps must be an integer from 1 to ${cfg.trainSteps}`);
  const ratio = cfg.trainSteps / steps;
  return Array.from({ length: steps }, (_, i) => Math.round(cfg.trainSteps - i * ratio) - 1);
}

export interface DdimScheduler {
  timesteps: number[];
  /** x_{t_prev} from x_t and the model output at timesteps[index] */
  step(modelOutput: Float32Array, index: number, sample: Float32Array): Float32Array;
  /** step() as x_{t_prev} = sample * x_t + output * modelOutput (eta = 0 makes it linear): for a step on the device */
  coefficients(index: number): { sample: number; output: number };
}

export function createDdim(steps: number, cfg: DdimConfig = DDIM_DEFAULTS): DdimScheduler {
  const acp = alphasCumprod(cfg);
  const timesteps = ddimTimesteps(steps, cfg);
  const ratio = cfg.trainSteps / steps;
  const roots = (index: number) => {
    const t = timesteps[index]!;
    const prev = Math.round(t - ratio);
    const at = acp[t]!;
    const ap = prev >= 0 ? acp[prev]! : 1;
    return { sa: Math.sqrt(at), sb: Math.sqrt(1 - at), spa: Math.sqrt(ap), spb: Math.sqrt(1 - ap) };
  };
  return {
    timesteps,
    coefficients(index) {
      const { sa, sb, spa, spb } = roots(index);
      if (cfg.prediction === 'v_prediction') return { sample: spa * sa + spb * sb, output: spb * sa - spa * sb };
      return sa > 0 ? { sample: spa / sa, output: spb - (spa * sb) / sa } : { sample: 0, output: spb };
    },
    step(out, index, x) {
      if (out.length !== x.length) throw new Error(`model output has ${out.length} values, the latents ${x.length}`);
      const { sa, sb, spa, spb } = roots(index);
      const res = new Float32Array(x.length);
      for (let i = 0; i < x.length; i++) {
        const xi = x[i]!;
        const o = out[i]!;
        let x0: number;
        let eps: number;
        if (cfg.prediction === 'v_prediction') {
          x0 = sa * xi - sb * o;
          eps = sa * o + sb * xi;
        } else {
          eps = o;
          x0 = sa > 0 ? (xi - sb * o) / sa : 0;
        }
        res[i] = spa * x0 + spb * eps;
      }
      return res;
    },
  };
}

/** classifier-free guidance: uncond + scale * (cond - uncond) */
export function guide(cond: Float32Array, uncond: Float32Array, scale: number): Float32Array {
  const out = new Float32Array(cond.length);
  for (let i = 0; i < cond.length; i++) out[i] = uncond[i]! + scale * (cond[i]! - uncond[i]!);
  return out;
}
