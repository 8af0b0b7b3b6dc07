// What an attempt leaves in the store: the handler's return value (a `Response` as its status and
// body) made JSON, or a note when it is too long or cannot be made JSON; errors as one line of text.

/** The longest result kept with a delivery; a longer one is kept as a note. */
const MAX_RESULT_CHARS = 64 * 1024;

export function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
}

export async function storableResult(value: unknown): Promise<unknown> {
  if (value instanceof Response) value = { status: value.status, body: await value.text() };
  if (value === undefined || value === null) return null;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return String(value);
  }
  if (json === undefined) return String(value);
  if (json.length > MAX_RESULT_CHARS) return `(result of ${json.length} characters, longer than the store keeps)`;
  return JSON.parse(json) as unknown;
}
