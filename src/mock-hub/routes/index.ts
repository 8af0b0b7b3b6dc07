import type { AnyRoute } from '../http/route.ts';
import { jobRoutes } from './jobs.ts';
import { notificationRoutes } from './notifications.ts';
import { organizationRoutes } from './organizations.ts';
import { paperRoutes } from './papers.ts';
import { repoListingRoutes } from './repo-listing.ts';
import { repoTreeRoutes } from './repo-tree.ts';
import { repositoryRoutes } from './repositories.ts';
import { resourceGroupRoutes } from './resource-groups.ts';
import { settingsRoutes } from './settings.ts';
import { webhookDeliveryRoutes } from './webhook-deliveries.ts';
import { webhookRoutes } from './webhooks.ts';
import { whoamiRoutes } from './whoami.ts';

/**
 * Every API route of the mock hub. A new resource adds its module here (the webhook delivery
 * module adds `webhook-deliveries.ts`), and it is then registered and documented in one go.
 */
export const apiRoutes: readonly AnyRoute[] = [
  ...notificationRoutes,
  ...settingsRoutes,
  ...paperRoutes,
  ...repositoryRoutes,
  ...webhookRoutes,
  ...webhookDeliveryRoutes,
  ...organizationRoutes,
  ...resourceGroupRoutes,
  ...whoamiRoutes,
  ...jobRoutes,
  ...repoListingRoutes,
  ...repoTreeRoutes,
];
