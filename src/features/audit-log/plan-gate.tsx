const PLAN_NAMES: Record<string, string> = {
  free: 'Free',
  team: 'Team',
  enterprise: 'Enterprise',
  enterprise_plus: 'Enterprise Plus',
};

/** Why the audit log is not available, instead of a broken page. */
export function PlanGate({
  org,
  plan,
  role,
  hubMessage,
}: {
  org: string;
  plan: string | undefined;
  role?: string | undefined;
  hubMessage?: string;
}) {
  const paid = plan !== undefined && plan !== 'free';
  return (
    <div
      className="rounded-lg border border-warning-border bg-warning-soft p-4 text-sm text-accent-strong"
      data-testid="gate-panel"
    >
      <p className="font-semibold">The audit log is not available</p>
      {paid && role !== undefined && role !== 'admin' ? (
        <p className="mt-1">
          Only organization admins can export the audit log; your role in {org} is {role}.
        </p>
      ) : (
        <p className="mt-1">
          The audit log needs the Team or Enterprise plan
          {plan ? `; ${org} is on ${PLAN_NAMES[plan] ?? plan}.` : '.'} Organization admins can upgrade in the
          organization's billing settings.
        </p>
      )}
      {hubMessage && <p className="mt-1 text-xs">The hub said: {hubMessage}</p>}
    </div>
  );
}
