import type { Paper } from '../../hub/schemas/index.ts';

/** The paper's authors as a radio group; picking one fills the author id. */
export function PaperAuthors({ paper, value, onPick }: { paper: Paper; value: string; onPick(id: string): void }) {
  return (
    <fieldset className="rounded-md border border-border p-3" data-testid="paper-authors">
      <legend className="px-1 text-sm font-semibold">{paper.title}</legend>
      <p className="mb-2 text-xs text-muted">Pick the author entry to claim.</p>
      <div className="grid gap-1 sm:grid-cols-2">
        {paper.authors.map((a) => (
          <label key={a._id} className="flex items-center gap-2 rounded px-2 py-1 text-sm hover:bg-subtle">
            <input
              type="radio"
              name="paper-author"
              value={a._id}
              checked={value.toLowerCase() === a._id}
              onChange={() => onPick(a._id)}
              className="accent-amber-600"
            />
            <span>{a.name}</span>
            {a.user && <span className="text-xs text-muted">claimed by {a.user.user}</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
