import {
  McpSettings,
  NotificationSettings,
  NotificationSettingsPatch,
  WatchList,
  WatchPatch,
  type WatchItem,
} from '../../hub/schemas/index.ts';
import { notFound } from '../http/http-error.ts';
import { defineRoute } from '../http/route.ts';
import { findOrg, findUser } from '../seed/users.ts';
import { seedMcp, seedNotificationSettings } from '../seed/settings.ts';
import type { HubState } from '../store/state-schema.ts';

const tag = 'users';

function settingsOf(state: HubState, user: string): NotificationSettings {
  return (state.notificationSettings[user] ??= seedNotificationSettings());
}

// Mock-only: no public client (huggingface_hub hf_api.py, huggingface.js packages/hub) reads the
// current flags; the spec has only the PATCH. The settings page copes without it (three-way flags).
const getNotificationSettings = defineRoute({
  method: 'get',
  path: '/api/settings/notifications',
  tag,
  auth: 'user',
  extension: 'mock-only',
  summary: 'Current notification settings (every flag)',
  response: NotificationSettings,
  handler: ({ auth, hub }) => settingsOf(hub.store.state, auth.user.name),
});

const patchNotificationSettings = defineRoute({
  method: 'patch',
  path: '/api/settings/notifications',
  tag,
  auth: 'user',
  summary: 'Change notification flags; flags not sent keep their value',
  description: 'prepaidAmount is required with launch_prepaid_credits: true. Answers the settings after the change.',
  body: NotificationSettingsPatch,
  response: NotificationSettings,
  handler: ({ body, auth, hub }) => {
    const current = settingsOf(hub.store.state, auth.user.name);
    Object.assign(current.notifications, body.notifications);
    if (body.prepaidAmount !== undefined) current.prepaidAmount = body.prepaidAmount;
    if (body.notifications.launch_prepaid_credits === false) delete current.prepaidAmount;
    return current;
  },
});

// Mock-only: no public client reads the watch list; the spec has only the PATCH. The settings page
// adds and removes items without it.
const getWatch = defineRoute({
  method: 'get',
  path: '/api/settings/watch',
  tag,
  auth: 'user',
  extension: 'mock-only',
  summary: 'Current watch list',
  response: WatchList,
  handler: ({ auth, hub }) => ({ watched: hub.store.state.watch[auth.user.name] ?? [] }),
});

function watchTargetExists(state: HubState, item: WatchItem): boolean {
  if (item.type === 'user') return findUser(item.id) !== undefined;
  if (item.type === 'org') return findOrg(item.id) !== undefined;
  return state.repos.some((r) => r.id === item.id);
}

const patchWatch = defineRoute({
  method: 'patch',
  path: '/api/settings/watch',
  tag,
  auth: 'user',
  summary: 'Add and remove watched users, orgs and repos',
  description:
    'Items to add must exist (404 otherwise); adding a watched item or deleting an unwatched one is a no-op. Answers the list after the change.',
  body: WatchPatch,
  response: WatchList,
  errors: [404],
  handler: ({ body, auth, hub }) => {
    const state = hub.store.state;
    const missing = body.add.find((i) => !watchTargetExists(state, i));
    if (missing) throw notFound(`body.add: ${missing.type} "${missing.id}" not found`);
    const key = (i: WatchItem) => `${i.type}:${i.id}`;
    const removed = new Set(body.delete.map(key));
    const list = (state.watch[auth.user.name] ?? []).filter((i) => !removed.has(key(i)));
    for (const i of body.add) if (!list.some((x) => key(x) === key(i))) list.push(i);
    state.watch[auth.user.name] = list;
    return { watched: list };
  },
});

const getMcp = defineRoute({
  method: 'get',
  path: '/api/settings/mcp',
  tag: 'mcp',
  auth: 'user',
  summary: 'MCP settings: built-in tools and Space tools',
  response: McpSettings,
  handler: ({ auth, hub }) => hub.store.state.mcp[auth.user.name] ?? seedMcp(auth.user.name),
});

export const settingsRoutes = [getNotificationSettings, patchNotificationSettings, getWatch, patchWatch, getMcp];
