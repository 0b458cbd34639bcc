/**
 * The language of a call: the `Service-Language` header (ISO 639-1) when it names an active
 * language, otherwise the caller's own. Invalid or inactive codes are ignored, as the contract says.
 */
export function resolveLanguage(header: string | null | undefined, userLanguage: string, active: Set<string>): string {
  const code = header?.trim().toLowerCase();
  if (code && /^[a-z]{2}$/.test(code) && active.has(code)) return code;
  return userLanguage;
}
