/** A setting's name with its explanation below, as switches and flag choices show them. */
export function SettingLabel({ id, label, description }: { id?: string; label: string; description?: string }) {
  return (
    <span>
      <span id={id} className="block text-sm font-medium">
        {label}
      </span>
      {description && <span className="block text-xs text-muted">{description}</span>}
    </span>
  );
}
