import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useSession } from '../../components/session/session-context.tsx';
import { proxiedHubUrl } from '../../components/session/proxied-hub.ts';
import { defaultHubUrl } from '../../components/session/session-storage.ts';
import { Button } from '../../components/ui/button.tsx';
import { describeError } from '../../components/ui/describe-error.ts';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { createHubClient } from '../../hub/client.ts';

function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/inbox';
}

export function Component() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Proxied (`npm start -- --hub-url`), the hub is fixed and reached through the page's own origin.
  const [proxied] = useState(proxiedHubUrl);
  const [baseUrl, setBaseUrl] = useState(proxied ?? defaultHubUrl());
  const [token, setToken] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ baseUrl?: string; token?: string; form?: string }>({});
  useEffect(() => {
    document.title = 'Sign in · Hub Console';
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next: typeof errors = {};
    let url: URL | null = null;
    try {
      url = new URL(proxied ? window.location.origin : baseUrl);
      if (!/^https?:$/.test(url.protocol)) next.baseUrl = 'Hub URL must start with http:// or https://';
    } catch {
      next.baseUrl = 'Hub URL must be a full URL, e.g. https://huggingface.co';
    }
    if (!token.trim()) next.token = 'Access token is required';
    setErrors(next);
    if (next.baseUrl || next.token || !url) return;
    setBusy(true);
    const cleanUrl = url.origin + url.pathname.replace(/\/+$/, '');
    try {
      await createHubClient({ baseUrl: cleanUrl, token: token.trim() }).whoami();
      signIn({ baseUrl: cleanUrl, token: token.trim(), remember });
      navigate(safeNext(params.get('next')), { replace: true });
    } catch (err) {
      const d = describeError(err);
      setErrors({
        form:
          d.status === 401
            ? `The hub did not accept this token: ${d.message}`
            : d.status
              ? `The hub answered HTTP ${d.status}: ${d.message}`
              : d.message,
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-surface-sunken p-6">
      <form
        onSubmit={submit}
        noValidate
        className="w-full max-w-sm space-y-4 rounded-xl border border-border bg-surface p-6 shadow-sm"
        aria-labelledby="sign-in-title"
      >
        <h1 id="sign-in-title" className="text-xl font-semibold">
          Sign in to Hub Console
        </h1>
        {params.get('expired') && <p className="text-sm text-accent">Your session ended. Sign in again.</p>}
        <Field
          label="Hub URL"
          error={errors.baseUrl}
          hint={
            proxied
              ? "Fixed: this console's server passes every request on to this hub."
              : 'Defaults to the embedded mock hub.'
          }
        >
          {(p) => (
            <input
              {...p}
              className={inputClass}
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.target.value)}
              readOnly={proxied !== null}
              type="url"
              autoComplete="url"
            />
          )}
        </Field>
        <Field
          label="Access token"
          error={errors.token}
          hint={
            proxied
              ? "A token of this hub; it stays in this browser and passes through this console's server, which keeps no copy."
              : baseUrl === defaultHubUrl()
                ? 'npm start prints the demo tokens of the embedded hub.'
                : 'A hub access token; it stays in this browser.'
          }
        >
          {(p) => (
            <input
              {...p}
              className={inputClass}
              value={token}
              onChange={(e) => setToken(e.target.value)}
              type="password"
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </Field>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          Remember me on this device
        </label>
        {errors.form && (
          <p role="alert" className="text-sm text-danger" data-testid="sign-in-error">
            {errors.form}
          </p>
        )}
        <Button type="submit" variant="primary" className="w-full justify-center" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </main>
  );
}
