import {
  NOTIFICATION_FLAGS,
  type McpSettings,
  type NotificationFlag,
  type NotificationSettings,
  type WatchItem,
} from '../../hub/schemas/index.ts';
import { seedTime, stableId } from './prng.ts';

/** Flags off by default in the seed; every other flag is on. */
const OFF_BY_DEFAULT = new Set([
  'launch_prepaid_credits',
  'launch_training_cluster',
  'daily_papers_digest',
  'org_suggestions_to_create',
]);

export function seedNotificationSettings(): NotificationSettings {
  const flags = Object.fromEntries(NOTIFICATION_FLAGS.map((f) => [f, !OFF_BY_DEFAULT.has(f)])) as Record<
    NotificationFlag,
    boolean
  >;
  return { notifications: { ...flags, product_updates_after: seedTime(30 * 86_400_000) } };
}

export function seedWatch(user: string): WatchItem[] {
  if (user === 'alice')
    return [
      { id: 'acme', type: 'org' },
      { id: 'bob', type: 'user' },
      { id: 'acme/llama-vision-model', type: 'repo' },
    ];
  if (user === 'bob') return [{ id: 'alice', type: 'user' }];
  return [];
}

export const BUILT_IN_MCP_TOOLS = [
  'hf_whoami',
  'space_search',
  'model_search',
  'paper_search',
  'dataset_search',
  'hub_repo_details',
  'hf_doc_search',
  'hf_doc_fetch',
];

export function seedMcp(user: string): McpSettings {
  const tool = (name: string, emoji: string) => ({
    _id: stableId(`space-tool:${user}:${name}`),
    name,
    emoji,
    subdomain: `${user}-${name}`.toLowerCase(),
  });
  return {
    builtInTools: user === 'carol' ? BUILT_IN_MCP_TOOLS.slice(0, 3) : BUILT_IN_MCP_TOOLS,
    spaceTools:
      user === 'alice'
        ? [tool('flux-image-gen', '🎨'), tool('whisper-transcribe', '🎙️')]
        : user === 'bob'
          ? [tool('ocr', '📄')]
          : [],
  };
}
