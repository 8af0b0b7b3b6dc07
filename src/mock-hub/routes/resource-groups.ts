import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  DeleteSuccess,
  ResourceGroup,
  ResourceGroupCreate,
  ResourceGroupList,
  ResourceGroupPatch,
} from '../../hub/schemas/index.ts';
import { recordAuditEvent } from '../audit/record-audit-event.ts';
import { TEAM_OR_HIGHER, type OrgGate } from '../auth/org-access.ts';
import { notFound } from '../http/http-error.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';

const tag = 'resource-groups';
const planMessage = 'Resource groups need a Team plan or higher';
const read: OrgGate = { plans: TEAM_OR_HIGHER, planMessage };
const admin: OrgGate = { plans: TEAM_OR_HIGHER, planMessage, admin: true };
const OrgParams = z.strictObject({ name: z.string() });
const GroupParams = z.strictObject({ name: z.string(), resourceGroupId: z.string() });

type GroupContext = RouteContext<'org', { name: string; resourceGroupId: string }, unknown, unknown>;

/** A group id of another org is not found in this one. */
function findGroup({ params: { name: org, resourceGroupId: id }, hub }: GroupContext) {
  const groups = hub.store.state.resourceGroups[org] ?? [];
  const index = groups.findIndex((g) => g.id === id);
  if (index < 0) throw notFound(`resource group "${id}" not found in organization "${org}"`);
  return { groups, index, group: groups[index]! };
}

function auditGroup(
  { params: { name: org }, auth, hub }: RouteContext<'org', { name: string }, unknown, unknown>,
  change: 'create' | 'settings' | 'delete',
  group: ResourceGroup,
) {
  const verb = { create: 'created', settings: 'updated', delete: 'deleted' }[change];
  recordAuditEvent(
    hub.store.state,
    org,
    auth,
    hub.store.now(),
    `resource_group.${change}`,
    `${auth.user.name} ${verb} resource group ${group.name}`,
    { resourceGroupId: group.id },
  );
}

// Mock-only: no public client lists resource groups (huggingface_hub's docs have users copy a group id
// from the hub's settings URL). The organization page opens a group by id without it.
const list = defineRoute({
  method: 'get',
  path: '/api/organizations/{name}/resource-groups',
  tag,
  auth: 'org',
  gate: read,
  extension: 'mock-only',
  summary: 'Resource groups of the organization',
  params: OrgParams,
  response: ResourceGroupList,
  handler: ({ params, hub }) => hub.store.state.resourceGroups[params.name] ?? [],
});

// Mock-only: no public client creates resource groups.
const create = defineRoute({
  method: 'post',
  path: '/api/organizations/{name}/resource-groups',
  tag,
  auth: 'org',
  gate: admin,
  extension: 'mock-only',
  summary: 'Create a resource group (the creator joins it as admin)',
  params: OrgParams,
  body: ResourceGroupCreate,
  response: ResourceGroup,
  handler: (ctx) => {
    const { params, body, auth, hub } = ctx;
    const u = auth.user;
    const group: ResourceGroup = {
      id: randomBytes(12).toString('hex'),
      name: body.name,
      description: body.description ?? null,
      autoJoin: { enabled: false },
      users: [
        {
          type: 'user',
          _id: u.id,
          fullname: u.fullname,
          name: u.name,
          avatarUrl: u.avatarUrl,
          role: 'admin',
          addedBy: u.name,
        },
      ],
      resources: [],
      repos: [],
    };
    (hub.store.state.resourceGroups[params.name] ??= []).push(group);
    auditGroup(ctx, 'create', group);
    return group;
  },
});

const get = defineRoute({
  method: 'get',
  path: '/api/organizations/{name}/resource-groups/{resourceGroupId}',
  tag,
  auth: 'org',
  gate: read,
  summary: 'One resource group',
  params: GroupParams,
  response: ResourceGroup,
  handler: (ctx) => findGroup(ctx).group,
});

const patch = defineRoute({
  method: 'patch',
  path: '/api/organizations/{name}/resource-groups/{resourceGroupId}',
  tag,
  auth: 'org',
  gate: admin,
  summary: 'Rename a resource group or change its description',
  params: GroupParams,
  body: ResourceGroupPatch,
  response: ResourceGroup,
  handler: (ctx) => {
    const { body } = ctx;
    const { group } = findGroup(ctx);
    if (body.name !== undefined) group.name = body.name;
    if (body.description !== undefined) group.description = body.description;
    auditGroup(ctx, 'settings', group);
    return group;
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/api/organizations/{name}/resource-groups/{resourceGroupId}',
  tag,
  auth: 'org',
  gate: admin,
  summary: 'Delete a resource group',
  params: GroupParams,
  response: DeleteSuccess,
  handler: (ctx) => {
    const { groups, index, group } = findGroup(ctx);
    groups.splice(index, 1);
    auditGroup(ctx, 'delete', group);
    return { success: true };
  },
});

export const resourceGroupRoutes = [list, create, get, patch, remove];
