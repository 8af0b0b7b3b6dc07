// A small graph-builder DSL: every value has a static shape, so ops can check their inputs and
// the builder can count FLOPs while the graph is written.
import {
  tensorBytes,
  type AttrValue,
  type ComputedTensor,
  type ElemType,
  type ExternalLocation,
  type GraphDef,
  type ModelDef,
  type NodeDef,
  type TensorDef,
  type ValueInfoDef,
} from './onnx-proto.ts';

export interface Value {
  readonly name: string;
  readonly type: ElemType;
  readonly dims: readonly number[];
}

export type Attrs = Record<string, AttrValue>;

export const attr = {
  int: (value: number): AttrValue => ({ kind: 'int', value }),
  float: (value: number): AttrValue => ({ kind: 'float', value }),
  string: (value: string): AttrValue => ({ kind: 'string', value }),
  ints: (value: readonly number[]): AttrValue => ({ kind: 'ints', value }),
  floats: (value: readonly number[]): AttrValue => ({ kind: 'floats', value }),
};

export const OPSET = 17;
export const MS_DOMAIN = 'com.microsoft';

export class GraphBuilder {
  private readonly nodes: NodeDef[] = [];
  private readonly initializers: TensorDef[] = [];
  private readonly inputs: ValueInfoDef[] = [];
  private readonly outputs: ValueInfoDef[] = [];
  private readonly valueInfo: ValueInfoDef[] = [];
  private readonly names = new Set<string>();
  private readonly constCache = new Map<string, Value>();
  private counter = 0;
  private scopes: string[] = [];

  constructor(readonly name: string) {}

  private unique(base: string): string {
    let n = base;
    while (this.names.has(n)) n = `${base}_${++this.counter}`;
    this.names.add(n);
    return n;
  }

  scoped<T>(scope: string, fn: () => T): T {
    this.scopes.push(scope);
    try {
      return fn();
    } finally {
      this.scopes.pop();
    }
  }

  private scopedName(base: string): string {
    return this.unique(this.scopes.length ? `${this.scopes.join('/')}/${base}` : base);
  }

  input(name: string, type: ElemType, dims: readonly number[]): Value {
    if (this.names.has(name)) throw new Error(`graph input ${name} defined twice`);
    this.names.add(name);
    this.inputs.push({ name, type, dims });
    return { name, type, dims };
  }

  output(value: Value, name: string): void {
    let v = value;
    if (value.name !== name) {
      this.names.add(name);
      this.nodes.push({
        opType: 'Identity',
        domain: '',
        name: `${name}_identity`,
        inputs: [value.name],
        outputs: [name],
        attributes: {},
      });
      this.valueInfo.push({ name, type: value.type, dims: value.dims });
      v = { ...value, name };
    }
    this.outputs.push({ name: v.name, type: v.type, dims: v.dims });
  }

  initializer(name: string, type: ElemType, dims: readonly number[], raw: Uint8Array): Value {
    const n = this.unique(name);
    this.initializers.push({ name: n, type, dims, raw });
    return { name: n, type, dims };
  }

  /** an initializer whose bytes stay in a file (a checkpoint tensor, referenced where it lies) */
  externalInitializer(name: string, type: ElemType, dims: readonly number[], external: ExternalLocation): Value {
    const n = this.unique(name);
    this.initializers.push({ name: n, type, dims, external });
    return { name: n, type, dims };
  }

  /** an initializer computed from other tensors' bytes when a session is made */
  computedInitializer(name: string, type: ElemType, dims: readonly number[], computed: ComputedTensor): Value {
    const n = this.unique(name);
    this.initializers.push({ name: n, type, dims, computed });
    return { name: n, type, dims };
  }

  /** small constants are deduplicated by content */
  constant(type: ElemType, dims: readonly number[], raw: Uint8Array, hint = 'const'): Value {
    const key = raw.length <= 256 ? `${type}|${dims.join(',')}|${Array.from(raw).join(',')}` : '';
    const hit = key ? this.constCache.get(key) : undefined;
    if (hit) return hit;
    const v = this.initializer(`${hint}`, type, dims, raw);
    if (key) this.constCache.set(key, v);
    return v;
  }

  node(
    opType: string,
    inputs: readonly (Value | null)[],
    outputs: readonly { type: ElemType; dims: readonly number[] }[],
    attributes: Attrs = {},
    domain = '',
  ): Value[] {
    const base = this.scopedName(opType);
    const outs = outputs.map((o, i) => ({
      name: outputs.length === 1 ? base : `${base}:${i}`,
      type: o.type,
      dims: o.dims,
    }));
    for (const o of outs) {
      this.names.add(o.name);
      this.valueInfo.push({ name: o.name, type: o.type, dims: o.dims });
    }
    const names = inputs.map((i) => i?.name ?? '');
    // absent optional inputs at the end are left out
    while (names.length && names[names.length - 1] === '') names.pop();
    this.nodes.push({ opType, domain, name: base, inputs: names, outputs: outs.map((o) => o.name), attributes });
    return outs;
  }

  toGraph(): GraphDef {
    return {
      name: this.name,
      nodes: this.nodes,
      initializers: this.initializers,
      inputs: this.inputs,
      outputs: this.outputs,
      valueInfo: this.valueInfo,
    };
  }

  toModel(): ModelDef {
    const usesMs = this.nodes.some((n) => n.domain === MS_DOMAIN);
    return {
      irVersion: 8,
      opsets: [{ domain: '', version: OPSET }, ...(usesMs ? [{ domain: MS_DOMAIN, version: 1 }] : [])],
      graph: this.toGraph(),
    };
  }

  stats(): { nodes: number; initializers: number; initializerBytes: number; opTypes: string[] } {
    return {
      nodes: this.nodes.length,
      initializers: this.initializers.length,
      initializerBytes: this.initializers.reduce((s, t) => s + tensorBytes(t), 0),
      opTypes: [...new Set(this.nodes.map((n) => (n.domain ? `${n.domain}.${n.opType}` : n.opType)))].sort(),
    };
  }
}
