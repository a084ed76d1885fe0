// Query strings as the clients our users run encode them. The same values, written by each, must
// mean the same thing to the server: a space is `+` in form encoding (HTML forms,
// URLSearchParams, Python requests, axios) and `%20` elsewhere; encodeURIComponent leaves
// `'()!*~` as they are; some clients write lower-case hex; a browser's address bar or curl with a
// hand-written URL leaves most reserved characters alone and encodes only what would break the
// query string (`&`, `=`, `#`, `+`, `%`, spaces) and non-ASCII characters (as UTF-8).
export const QUERY_STYLES = ["component", "strict", "form", "lowercase", "browser"] as const;
export type QueryStyle = (typeof QUERY_STYLES)[number];

/** RFC 3986 strict: every character but the unreserved ones percent-encoded. */
const strict = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A hand-written URL: only what breaks the query string, spaces and non-ASCII are encoded. */
const browser = (s: string) =>
  [...s]
    .map((c) => (c === "&" || c === "=" || c === "#" || c === "+" || c === "%" || c === " " || c > "~" || c < "!" ? strict(c) : c))
    .join("");

export function encodeQuery(query: Record<string, string>, style: QueryStyle): string {
  if (style === "form") return new URLSearchParams(query).toString();
  const enc = {
    component: encodeURIComponent,
    strict,
    lowercase: (s: string) => strict(s).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    browser,
  }[style];
  return Object.entries(query)
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .join("&");
}
