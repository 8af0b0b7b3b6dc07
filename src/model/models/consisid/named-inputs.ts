// forward() arguments <-> flat tensor names, as the fixtures and the CLI store them:
// a list as id_vit_hidden.0, id_vit_hidden.1, ...; the rotary pair as image_rotary_emb.cos/.sin.
import type { ForwardInputs } from './forward-inputs.ts';
import type { HostTensor } from '../../io/tensor.ts';

export function argsFromNamedTensors(tensors: ReadonlyMap<string, HostTensor>, source = 'inputs'): ForwardInputs {
  const get = (name: string): HostTensor | undefined => tensors.get(name);
  const need = (name: string): HostTensor => get(name) ?? missing(name);
  const missing = (name: string): never => {
    throw new Error(`${source}: tensor "${name}" is missing (found: ${[...tensors.keys()].join(', ') || 'none'})`);
  };
  const vit: HostTensor[] = [];
  for (let i = 0; get(`id_vit_hidden.${i}`); i++) vit.push(get(`id_vit_hidden.${i}`)!);
  const known = new Set([
    'hidden_states',
    'encoder_hidden_states',
    'timestep',
    'timestep_cond',
    'id_cond',
    'image_rotary_emb.cos',
    'image_rotary_emb.sin',
    ...vit.map((_, i) => `id_vit_hidden.${i}`),
  ]);
  const unknown = [...tensors.keys()].filter((k) => !known.has(k));
  if (unknown.length) throw new Error(`${source}: unexpected tensor(s) ${unknown.join(', ')}`);
  const cos = get('image_rotary_emb.cos');
  const sin = get('image_rotary_emb.sin');
  if (Boolean(cos) !== Boolean(sin)) throw new Error(`${source}: image_rotary_emb needs both .cos and .sin`);
  const args: ForwardInputs = {
    hidden_states: need('hidden_states'),
    encoder_hidden_states: need('encoder_hidden_states'),
    timestep: need('timestep'),
  };
  const tc = get('timestep_cond');
  if (tc) args.timestep_cond = tc;
  if (cos && sin) args.image_rotary_emb = [cos, sin];
  const idc = get('id_cond');
  if (idc) args.id_cond = idc;
  if (vit.length) args.id_vit_hidden = vit;
  return args;
}
