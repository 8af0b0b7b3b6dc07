import { REPO_TYPES, type Notification, type Participant } from '../../hub/schemas/index.ts';
import type { StoredNotification } from '../store/state-schema.ts';
import { createPrng, seedOf, seedTime, stableId, type Prng } from './prng.ts';
import { USERS } from './users.ts';

/** Title of one of alice's repo notifications: the dashboard must render it as text. */
export const XSS_TITLE = '<img src=x onerror=alert(1)>';

const TITLES = [
  'Add safetensors weights',
  'Fix tokenizer config',
  'Update README with eval results',
  'Training diverges after step 10k',
  'License clarification',
  'Add ONNX export',
  'Broken link in model card',
  'Request: int8 quantized variant',
  'Dataset viewer fails on split "test"',
  'Space crashes on startup',
  'Support for longer context',
  'Typo in config.json',
];
const OTHER_USERS = ['dave', 'erin', 'frank', 'grace', 'heidi', 'ivan'];

function participant(name: string): Participant {
  return { _id: stableId(`user:${name}`), avatar: `https://cdn.example.test/avatars/${name}.svg`, user: name };
}

function participants(prng: Prng, me: string, participating: boolean): Participant[] {
  const others = [prng.pick(OTHER_USERS), prng.pick(OTHER_USERS)]
    .filter((v, i, a) => a.indexOf(v) === i)
    .map(participant);
  return participating ? [participant(me), ...others] : others;
}

function build(prng: Prng, me: string, i: number): StoredNotification {
  const type = (['repo', 'paper', 'post', 'community_blog'] as const)[i % 4]!;
  const updatedAt = seedTime(i * 3_600_000 + prng.int(0, 3_000_000));
  const read = i >= 6 && prng.chance(0.55);
  const participating = prng.chance(0.6);
  const mentioned = participating && prng.chance(0.4);
  const title = prng.pick(TITLES);
  const discussionId = stableId(`discussion:${me}:${i}`);
  const base = { updatedAt, read, discussionEventId: stableId(`event:${me}:${i}`) };
  let n: Notification;
  if (type === 'repo') {
    const repoType = REPO_TYPES[Math.floor(i / 4) % REPO_TYPES.length]!;
    const owner = prng.pick([me, 'acme', 'teamco', 'dave']);
    n = {
      type,
      ...base,
      repo: { type: repoType, name: `${owner}/${repoType}-${Math.floor(i / 4) % 7}` },
      discussion: {
        num: 1 + (i % 40),
        title: me === 'alice' && i === 4 ? XSS_TITLE : title,
        status: prng.pick(['draft', 'open', 'closed', 'merged'] as const),
        id: discussionId,
        isPullRequest: prng.chance(0.5),
        participating: participants(prng, me, participating),
      },
    };
  } else if (type === 'paper') {
    const paperId = stableId(`paper:${i % 5}`);
    n = {
      type,
      ...base,
      paper: { _id: paperId, title: `Paper ${i % 5}: ${title}` },
      paperDiscussion: { id: discussionId, participating: participants(prng, me, participating), paperId },
    };
  } else if (type === 'post') {
    n = {
      type,
      ...base,
      post: {
        id: discussionId,
        slug: `post-${i}`,
        authorName: prng.pick(OTHER_USERS),
        title,
        participating: participants(prng, me, participating),
      },
    };
  } else {
    n = {
      type,
      ...base,
      blog: {
        id: discussionId,
        slug: `blog-${i}`,
        title: `Blog: ${title}`,
        canonical: prng.chance(0.5),
        participating: participants(prng, me, participating),
      },
      ...(prng.chance(0.7) ? { authorName: prng.pick(OTHER_USERS) } : {}),
    };
  }
  return { notification: n, mentioned };
}

export const NOTIFICATION_COUNTS: Record<string, number> = { alice: 72, bob: 16, carol: 8 };

export function seedNotifications(): Record<string, StoredNotification[]> {
  const out: Record<string, StoredNotification[]> = {};
  for (const u of USERS) {
    const prng = createPrng(seedOf(`notifications:${u.name}`));
    out[u.name] = Array.from({ length: NOTIFICATION_COUNTS[u.name] ?? 0 }, (_, i) => build(prng, u.name, i));
  }
  return out;
}
