import type { Paper } from '../../hub/schemas/index.ts';

/** The paper's authors as a radio group; picking one fills the author id. */
export function PaperAuthors({ paper, value, onPick }: { paper: Paper; value: string; onPick(id: string): void }) {
  return (
    <fieldset className="rounded-md border border-slate-200 p-3 dark:border-slate-800" data-testid="paper-authors">
      <legend className="px-1 text-sm font-semibold">{paper.title}</legend>
      <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">Pick the author entry to claim.</p>
      <div className="grid gap-1 sm:grid-cols-2">
        {paper.authors.map((a) => (
          <label
            key={a._id}
            className="flex items-center gap-2 rounded px-2 py-1 text-sm hover:bg-slate-50 dark:hover:bg-slate-800"
          >
            <input
              type="radio"
              name="paper-author"
              value={a._id}
              checked={value.toLowerCase() === a._id}
              onChange={() => onPick(a._id)}
              className="accent-amber-600"
            />
            <span>{a.name}</span>
            {a.user && <span className="text-xs text-slate-600 dark:text-slate-400">claimed by {a.user.user}</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
