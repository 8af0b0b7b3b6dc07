import { z } from 'zod';

export const TOKEN_PREFIX = 'hf';
export const TokenRevoke = z.strictObject({
  token: z
    .string()
    .regex(new RegExp(`^${TOKEN_PREFIX}_\\S+$`), `token must be a raw access token beginning with ${TOKEN_PREFIX}_`),
});
export type TokenRevoke = z.infer<typeof TokenRevoke>;
