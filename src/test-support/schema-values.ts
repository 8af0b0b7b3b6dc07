// Values generated from zod schemas, and single-spot breakages of them: the mock hub's hardening
// generators, offered to the client's tests too (one generator for fuzzing both sides).
export { toJsonSchema, validSamples } from '../mock-hub/hardening/json-schema.ts';
export { applyMutation, describeMutation, mutationsOf, type Mutation } from '../mock-hub/hardening/mutations.ts';
