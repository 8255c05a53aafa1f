/**
 * Secret masking for every log line, transcript and record: secrets (the lichess token, the CSA
 * password) are registered once at start-up and replaced by `***` wherever they appear, including
 * inside longer strings such as `LOGIN kishi floodgate-300-10F,secret` or an Authorization header.
 */
const secrets = new Set<string>();

/** Registers a secret so that `redact` masks it from now on; very short values are ignored (too many false hits). */
export function registerSecret(value: string | undefined): void {
  if (value !== undefined && value.length >= 4) secrets.add(value);
}

/** Forgets every registered secret (tests). */
export function clearSecrets(): void {
  secrets.clear();
}

const TOKEN_PATTERN = /\b(lip_[A-Za-z0-9]{8,}|Bearer\s+[A-Za-z0-9_\-.]{8,})/g;

/** The text with every registered secret and anything shaped like a lichess token masked. */
export function redact(text: string): string {
  let out = text;
  for (const s of secrets) {
    if (out.includes(s)) out = out.split(s).join('***');
  }
  return out.replace(TOKEN_PATTERN, (m) => (m.startsWith('Bearer') ? 'Bearer ***' : '***'));
}
