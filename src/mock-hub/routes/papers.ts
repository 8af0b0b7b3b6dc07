import { z } from 'zod';
import { Paper, PaperClaim, PaperClaimResult } from '../../hub/schemas/index.ts';
import { conflict, forbidden, notFound } from '../http/http-error.ts';
import { defineRoute } from '../http/route.ts';
import { findUserById } from '../seed/users.ts';

// Real hub: huggingface_hub hf_api.py HfApi.paper_info calls GET {endpoint}/api/papers/{id}.
const getPaper = defineRoute({
  method: 'get',
  path: '/api/papers/{paperId}',
  tag: 'papers',
  auth: 'user',
  extension: { realHub: 'huggingface_hub src/huggingface_hub/hf_api.py HfApi.paper_info' },
  summary: 'A paper with its author entries (claimed entries carry the user)',
  params: z.strictObject({ paperId: z.string().min(1) }),
  response: Paper,
  errors: [404],
  handler: ({ params, hub }) => {
    const paper = hub.store.state.papers.find((p) => p.id === params.paperId);
    if (!paper) throw notFound(`paper "${params.paperId}" not found`);
    return paper;
  },
});

/**
 * Claim an author entry. Without claimAuthorId the unclaimed entry whose name equals the target
 * user's full name is taken. targetUserId defaults to the caller and may only name the caller.
 */
const claim = defineRoute({
  method: 'post',
  path: '/api/settings/papers/claim',
  tag: 'papers',
  auth: 'user',
  summary: 'Claim authorship of a paper',
  description:
    '404: unknown paper, author entry or user. 409: entry already claimed, or the target user already holds an entry on this paper. 403: claiming for another user.',
  body: PaperClaim,
  response: PaperClaimResult,
  errors: [403, 404, 409],
  handler: ({ body, auth, hub }) => {
    const paper = hub.store.state.papers.find((p) => p.id === body.paperId);
    if (!paper) throw notFound(`body.paperId: paper "${body.paperId}" not found`);
    const target = body.targetUserId ? findUserById(body.targetUserId) : auth.user;
    if (!target) throw notFound(`body.targetUserId: user "${body.targetUserId}" not found`);
    if (target.id !== auth.user.id) throw forbidden('body.targetUserId: you can only claim papers for yourself');
    const held = paper.authors.find((a) => a.user?._id === target.id);
    if (held)
      throw conflict(`body.paperId: ${target.name} already holds author entry "${held.name}" on paper "${paper.id}"`);
    const wanted = body.claimAuthorId?.toLowerCase();
    const entry = wanted
      ? paper.authors.find((a) => a._id === wanted)
      : paper.authors.find((a) => !a.user && a.name === target.fullname);
    if (!entry) {
      throw notFound(
        body.claimAuthorId
          ? `body.claimAuthorId: paper "${paper.id}" has no author entry "${body.claimAuthorId}"`
          : `body.claimAuthorId: paper "${paper.id}" has no unclaimed author entry named "${target.fullname}"; give claimAuthorId`,
      );
    }
    if (entry.user)
      throw conflict(`body.claimAuthorId: author entry "${entry.name}" is already claimed by ${entry.user.user}`);
    entry.user = { _id: target.id, user: target.name, fullname: target.fullname, avatarUrl: target.avatarUrl };
    return { ok: true, claimedPaperId: paper.id };
  },
});

export const paperRoutes = [getPaper, claim];
