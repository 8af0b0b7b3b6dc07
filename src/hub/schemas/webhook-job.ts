import { z } from 'zod';
import { nameSet } from './common.ts';
import { Arch, Flavor } from './flavor.ts';

/** Environment keys: a letter, then at least one letter, digit or underscore. */
export const ENV_KEY = /^[A-Za-z][A-Za-z0-9_]+$/;
/** Secret names: a letter followed by letters, digits, underscores. */
export const SECRET_KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
/** Label keys (1..100) and values (0..100): letters, digits, dot, dash, underscore. */
export const LABEL_KEY = /^[A-Za-z0-9._-]{1,100}$/;
export const LABEL_VALUE = /^[A-Za-z0-9._-]{0,100}$/;

export const Environment = z.record(
  z
    .string()
    .regex(ENV_KEY, 'environment keys must start with a letter followed by at least one letter, digit or underscore'),
  z.string(),
);
export const Labels = z.record(
  z.string().regex(LABEL_KEY, 'label keys are 1 to 100 letters, digits, dots, dashes or underscores'),
  z.string().regex(LABEL_VALUE, 'label values are at most 100 letters, digits, dots, dashes or underscores'),
);
const Command = z.array(z.string().min(1, 'command items must not be empty')).min(1, 'command needs at least one item');
export const TimeoutSeconds = z
  .number()
  .int('timeoutSeconds must be an integer')
  .gt(0, 'timeoutSeconds must be greater than 0')
  .nullable();

export const VOLUME_TYPES = ['bucket', 'model', 'dataset', 'space'] as const;
export const VolumeRequest = z
  .strictObject({
    type: z.enum(VOLUME_TYPES),
    source: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'source must be <namespace>/<name>'),
    mountPath: z.string().startsWith('/', 'mountPath must begin with /'),
    revision: z.string().min(1).optional(),
    readOnly: z.boolean().optional(),
    path: z.string().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.type === 'bucket' && v.revision !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['revision'], message: 'revision applies to repos only, not buckets' });
    }
  });
export type VolumeRequest = z.infer<typeof VolumeRequest>;

export const Expose = z.strictObject({
  ports: z
    .array(z.number().int().min(1, 'ports are 1..65535').max(65535, 'ports are 1..65535'))
    .max(20, 'at most 20 exposed ports'),
});
export const Ssh = z.strictObject({ enabled: z.boolean().default(false) });

/** Webhook job as sent in create/update requests. */
export const WebhookJobRequest = z
  .strictObject({
    spaceId: z.string().min(1).optional(),
    dockerImage: z.string().min(1).optional(),
    arguments: z.array(z.string()).optional(),
    command: Command.optional(),
    environment: Environment.default({}),
    secrets: z
      .record(
        z
          .string()
          .regex(SECRET_KEY, 'secret names must start with a letter followed by letters, digits or underscores'),
        z.string(),
      )
      .optional(),
    flavor: Flavor,
    arch: Arch.optional(),
    timeoutSeconds: TimeoutSeconds.default(null),
    attempts: z.number().int('attempts must be an integer').min(1, 'attempts must be at least 1').default(1),
    labels: Labels.optional(),
    volumes: z.array(VolumeRequest).min(1, 'volumes needs at least one item when given').optional(),
    expose: Expose.optional(),
    ssh: Ssh.optional(),
  })
  .superRefine((job, ctx) => {
    if ((job.dockerImage === undefined) === (job.spaceId === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['dockerImage'],
        message: 'a job runs exactly one of dockerImage or spaceId',
      });
    }
  });
export type WebhookJobRequest = z.input<typeof WebhookJobRequest>;

/** Webhook job as returned by the hub (secret names only). */
export const WebhookJob = z.strictObject({
  dockerImage: z.string().optional(),
  spaceId: z.string().optional(),
  environment: Environment,
  arguments: z.array(z.string()).optional(),
  command: Command.optional(),
  flavor: Flavor,
  timeoutSeconds: TimeoutSeconds,
  labels: Labels.optional(),
  secrets: nameSet(z.array(z.string())).optional(),
});
export type WebhookJob = z.infer<typeof WebhookJob>;
