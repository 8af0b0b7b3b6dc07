import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useHubClient } from '../../components/session/session-context.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { HubApiError } from '../../hub/errors.ts';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { TokenRevoke, type WhoamiOrg } from '../../hub/schemas/index.ts';
import { GatePanel } from './gate-panel.tsx';
import { tokenRevokeGate } from './plan-rules.ts';

/** Enterprise admins cut a member token off from this org; the token keeps working elsewhere. */
export function TokenRevokeSection({ org, info }: { org: string; info: WhoamiOrg | undefined }) {
  const client = useHubClient();
  const gate = tokenRevokeGate(org, info);
  const [token, setToken] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const revoke = useMutation({ mutationFn: (body: TokenRevoke) => client.revokeOrgToken(org, body) });

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    const checked = TokenRevoke.safeParse({ token: token.trim() });
    if (!checked.success) {
      setFieldError(checked.error.issues[0]?.message ?? 'invalid token');
      (e.currentTarget as HTMLFormElement).querySelector('input')?.focus();
      return;
    }
    setFieldError(null);
    revoke.mutate(checked.data, {
      onSuccess: () => {
        // The raw token is cleared and never echoed back on the page.
        setToken('');
        setDone(true);
      },
      onError: (err) => {
        // "no token of a member matches" and the like belong next to the field.
        if (err instanceof HubApiError && err.status < 500 && err.field?.replace(/^body\./, '') === 'token') {
          setFieldError(err.hubMessage.replace(/^[\w.]+:\s*/, ''));
        }
      },
    });
  }

  return (
    <section aria-labelledby="revoke-title" className="space-y-3">
      <h2 id="revoke-title" className="text-lg font-semibold">
        Revoke a member token
      </h2>
      {!gate.allowed ? (
        <GatePanel title="Token revocation is not available">{gate.reason}</GatePanel>
      ) : (
        <form onSubmit={submit} noValidate className="max-w-lg space-y-3" aria-label="Revoke a member token">
          <p className="text-sm text-muted">
            Removes the token's access to {org} only. The token itself is not deleted and still works elsewhere.
          </p>
          <Field label="Access token" error={fieldError} hint="The raw token value, beginning with hf_.">
            {(p) => (
              <input
                {...p}
                type="password"
                autoComplete="off"
                spellCheck={false}
                className={inputClass}
                value={token}
                onChange={(e) => setToken(e.target.value)}
              />
            )}
          </Field>
          {revoke.isError && !fieldError && <ErrorPanel error={revoke.error} title="The token was not revoked" />}
          {done && (
            <p role="status" className="text-sm text-success">
              The token no longer has access to {org}.
            </p>
          )}
          <Button type="submit" variant="danger" disabled={revoke.isPending}>
            {revoke.isPending ? 'Revoking…' : 'Revoke access'}
          </Button>
        </form>
      )}
    </section>
  );
}
