// Initializers computed from checkpoint tensors (block-quantized weights), group by group: a group
// is computed once, from its inputs, and its outputs are kept until each initializer using them
// has taken its own. The next group's inputs are read while one computes (a file read runs off the
// JS thread, a Range request downloads): one group's float weights held ahead, a few MB.
import type { ComputedGroup, ExternalLocation, TensorDef } from './onnx-proto.ts';

/** what is known of a group before anything is read */
interface GroupPlan {
  /** its first initializer, for messages */
  name: string;
  /** how many initializers take an output of it */
  users: number;
  /** the group computed after it, whose inputs are read meanwhile */
  next?: ComputedGroup;
}

export type ReadInput = (loc: ExternalLocation, tensor: string) => Promise<Uint8Array>;
/** a group's outputs made already (weights converted as they downloaded); null: computed here */
export type Precomputed = (group: ComputedGroup) => Promise<Uint8Array[]> | null;

export class ComputedWeights {
  private readonly plans = new Map<ComputedGroup, GroupPlan>();
  /** inputs being read (ahead of their turn), until their group is computed: then the computation */
  private readonly reads = new Map<ComputedGroup, Promise<() => Uint8Array[]>>();
  /** outputs computed, until their last user has taken them */
  private readonly kept = new Map<ComputedGroup, { outputs: Uint8Array[]; left: number }>();

  constructor(
    initializers: readonly TensorDef[],
    private readonly read: ReadInput,
    private readonly precomputed?: Precomputed,
  ) {
    let last: GroupPlan | undefined;
    for (const t of initializers) {
      if (!t.computed) continue;
      const { group } = t.computed;
      const plan = this.plans.get(group);
      if (plan) plan.users++;
      else {
        if (last) last.next = group;
        last = { name: t.name, users: 1 };
        this.plans.set(group, last);
      }
    }
  }

  /** output `output` of the group, for initializer `tensor`: computed at the first take, let go at the last */
  async take(group: ComputedGroup, output: number, tensor: string): Promise<Uint8Array> {
    const computed = this.kept.get(group) ?? (await this.compute(group));
    if (--computed.left === 0) this.kept.delete(group);
    const data = computed.outputs[output];
    if (!data) throw new Error(`initializer ${tensor}: computed output ${output} is missing`);
    return data;
  }

  /** the group's inputs (or outputs made already), read once: started ahead for the next group while this one computes */
  prefetch(group: ComputedGroup): Promise<() => Uint8Array[]> {
    let r = this.reads.get(group);
    if (!r) {
      const tensor = this.plans.get(group)!.name;
      const made = this.precomputed?.(group);
      r = made
        ? made.then((outputs) => () => outputs)
        : Promise.all(group.inputs.map((loc) => this.read(loc, tensor))).then((inputs) => () => group.compute(inputs));
      // a failure is reported by the group's own await, not as an unhandled rejection before it
      r.catch(() => {});
      this.reads.set(group, r);
    }
    return r;
  }

  private async compute(group: ComputedGroup): Promise<{ outputs: Uint8Array[]; left: number }> {
    const plan = this.plans.get(group)!;
    const inputs = this.prefetch(group);
    if (plan.next) this.prefetch(plan.next);
    const computed = { outputs: (await inputs)(), left: plan.users };
    this.reads.delete(group);
    this.kept.set(group, computed);
    return computed;
  }
}
