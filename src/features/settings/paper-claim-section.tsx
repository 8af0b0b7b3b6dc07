import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useHubClient } from '../../components/session/session-context.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { paperQuery, whoamiQuery } from '../../hub/queries.ts';
import { PaperClaim } from '../../hub/schemas/index.ts';
import { hubFieldError, issuesByField } from './field-errors.ts';
import { PaperAuthors } from './paper-authors.tsx';
import { usePaperClaim } from './use-paper-claim.ts';

const FIELDS = ['paperId', 'claimAuthorId', 'targetUserId'] as const;
type Errors = Partial<Record<(typeof FIELDS)[number], string>>;

export function PaperClaimSection() {
  const client = useHubClient();
  const me = useQuery(whoamiQuery(client));
  const [paperId, setPaperId] = useState('');
  const [lookedUp, setLookedUp] = useState('');
  const [authorId, setAuthorId] = useState('');
  const [target, setTarget] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const paper = useQuery({ ...paperQuery(client, lookedUp), enabled: lookedUp !== '' });
  const claim = usePaperClaim();
  const targetUserId = target ?? me.data?.id ?? '';

  function lookUp() {
    const id = paperId.trim();
    if (!id) return setErrors({ paperId: 'Enter a paper id, e.g. 2401.00001' });
    setErrors({});
    setAuthorId('');
    claim.reset();
    setLookedUp(id);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const body = {
      paperId: paperId.trim(),
      ...(authorId.trim() ? { claimAuthorId: authorId.trim() } : {}),
      ...(targetUserId.trim() ? { targetUserId: targetUserId.trim() } : {}),
    };
    const parsed = PaperClaim.safeParse(body);
    if (!parsed.success) return setErrors(issuesByField(parsed.error) as Errors);
    setErrors({});
    claim.mutate(parsed.data, {
      onError: (err) => {
        const f = hubFieldError(err, FIELDS);
        if (f) setErrors({ [f.field]: f.message });
      },
    });
  }

  const fieldError = claim.isError ? hubFieldError(claim.error, FIELDS) : null;
  return (
    <section aria-labelledby="claim-heading" className="mb-10">
      <h2 id="claim-heading" className="mb-1 text-lg font-semibold">
        Claim paper authorship
      </h2>
      <p className="mb-3 text-sm text-muted">Link an author entry of a paper to a hub account.</p>
      <form onSubmit={submit} noValidate className="max-w-2xl space-y-3" aria-label="Claim paper authorship">
        <div className="flex items-end gap-2">
          <div className="flex-1">
            <Field label="Paper id" error={errors.paperId}>
              {(p) => (
                <input
                  {...p}
                  className={inputClass}
                  value={paperId}
                  onChange={(e) => setPaperId(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      lookUp();
                    }
                  }}
                  placeholder="2401.00001"
                  autoComplete="off"
                />
              )}
            </Field>
          </div>
          <Button onClick={lookUp} className={errors.paperId ? 'mb-5' : ''}>
            Look up
          </Button>
        </div>
        {lookedUp !== '' && paper.isPending && <Skeleton rows={2} label="Loading paper" />}
        {paper.isError && (
          <ErrorPanel error={paper.error} title="Could not load the paper" onRetry={() => void paper.refetch()} />
        )}
        {paper.data && <PaperAuthors paper={paper.data} value={authorId} onPick={setAuthorId} />}
        <Field
          label="Author id (claimAuthorId)"
          error={errors.claimAuthorId}
          hint="24 hexadecimal characters; picked from the list above or pasted."
        >
          {(p) => (
            <input
              {...p}
              className={`${inputClass} font-mono`}
              value={authorId}
              onChange={(e) => setAuthorId(e.target.value)}
              autoComplete="off"
            />
          )}
        </Field>
        <Field
          label="Receiving user id (targetUserId)"
          error={errors.targetUserId}
          hint={me.data ? `Defaults to you (${me.data.name}).` : undefined}
        >
          {(p) => (
            <input
              {...p}
              className={`${inputClass} font-mono`}
              value={targetUserId}
              onChange={(e) => setTarget(e.target.value)}
              autoComplete="off"
            />
          )}
        </Field>
        <Button type="submit" variant="primary" disabled={claim.isPending}>
          {claim.isPending ? 'Claiming…' : 'Claim authorship'}
        </Button>
        {claim.isSuccess && (
          <p role="status" className="text-sm text-success" data-testid="claim-result">
            {claim.data.ok
              ? `Claimed paper ${claim.data.claimedPaperId}.`
              : `The hub did not accept the claim for ${claim.data.claimedPaperId}.`}
          </p>
        )}
        {claim.isError && !fieldError && (
          <ErrorPanel
            error={claim.error}
            title="Could not claim the paper"
            onRetry={() => claim.variables && claim.mutate(claim.variables)}
          />
        )}
      </form>
    </section>
  );
}
