import type { NotificationFlag } from '../../hub/schemas/index.ts';

export interface FlagInfo {
  flag: NotificationFlag;
  label: string;
  description: string;
}

export interface FlagGroup {
  id: string;
  title: string;
  flags: FlagInfo[];
}

/** Every flag of the spec, exactly once (flag-groups.test.ts checks it). */
export const FLAG_GROUPS: FlagGroup[] = [
  {
    id: 'discussions',
    title: 'Discussions & posts (email)',
    flags: [
      {
        flag: 'discussions_participating',
        label: 'Discussions I take part in',
        description: 'New comments and status changes where you participate.',
      },
      {
        flag: 'discussions_watched',
        label: 'Discussions on watched repos',
        description: 'Activity on repositories, users and orgs you watch.',
      },
      {
        flag: 'posts_participating',
        label: 'Posts I take part in',
        description: 'Replies to posts you wrote or commented on.',
      },
      { flag: 'user_follows', label: 'New followers', description: 'Someone starts following you.' },
    ],
  },
  {
    id: 'web',
    title: 'Web notifications',
    flags: [
      {
        flag: 'web_discussions_participating',
        label: 'Discussions I take part in',
        description: 'Shown in the inbox on the hub.',
      },
      {
        flag: 'web_discussions_watched',
        label: 'Discussions on watched repos',
        description: 'Shown in the inbox on the hub.',
      },
      { flag: 'web_posts_participating', label: 'Posts I take part in', description: 'Shown in the inbox on the hub.' },
    ],
  },
  {
    id: 'papers',
    title: 'Papers',
    flags: [
      {
        flag: 'arxiv_paper_activity',
        label: 'Activity on my papers',
        description: 'Comments and upvotes on papers you authored.',
      },
      {
        flag: 'daily_papers_digest',
        label: 'Daily papers digest',
        description: 'A daily email with the papers of the day.',
      },
    ],
  },
  {
    id: 'organizations',
    title: 'Organizations',
    flags: [
      {
        flag: 'org_request',
        label: 'Join requests',
        description: 'Someone asks to join an organization you administer.',
      },
      {
        flag: 'org_suggestions',
        label: 'Organization suggestions',
        description: 'Organizations you might want to join.',
      },
      {
        flag: 'org_verified_suggestions',
        label: 'Verified organization suggestions',
        description: 'Suggestions based on your verified email domain.',
      },
      {
        flag: 'org_suggestions_to_create',
        label: 'Suggestions to create an organization',
        description: 'When colleagues could share an organization.',
      },
      {
        flag: 'gated_user_access_request',
        label: 'Gated repo access requests',
        description: 'Someone requests access to a gated repository you manage.',
      },
    ],
  },
  {
    id: 'product',
    title: 'Product & launches',
    flags: [
      { flag: 'announcements', label: 'Announcements', description: 'Product news and major announcements.' },
      { flag: 'launch_spaces', label: 'Spaces launches', description: 'New Spaces features and hardware.' },
      { flag: 'launch_autonlp', label: 'AutoTrain launches', description: 'New AutoTrain features.' },
      {
        flag: 'launch_training_cluster',
        label: 'Training cluster launches',
        description: 'Training cluster availability.',
      },
      {
        flag: 'launch_prepaid_credits',
        label: 'Prepaid credits',
        description: 'Prepaid credit offers; asks for an amount when turned on.',
      },
      {
        flag: 'inference_endpoint_status',
        label: 'Inference Endpoint status',
        description: 'Your endpoints start, fail or scale to zero.',
      },
      {
        flag: 'api_inference_sunset',
        label: 'Inference API sunsets',
        description: 'Models you use are about to leave the serverless API.',
      },
    ],
  },
  {
    id: 'security',
    title: 'Security & account',
    flags: [
      {
        flag: 'secret_detected',
        label: 'Leaked secrets',
        description: 'A secret was found in one of your repositories.',
      },
      { flag: 'locked_out', label: 'Account locked', description: 'Sign-in was blocked after repeated failures.' },
    ],
  },
];
