import { z } from 'zod';

export const SpaceTool = z.strictObject({
  _id: z.string(),
  name: z.string(),
  emoji: z.string(),
  subdomain: z.string(),
});
export const McpSettings = z.strictObject({ builtInTools: z.array(z.string()), spaceTools: z.array(SpaceTool) });
export type McpSettings = z.infer<typeof McpSettings>;
