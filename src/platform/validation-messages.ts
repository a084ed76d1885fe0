// Validation errors in words: what is expected at each path (a date as YYYY-MM-DD, not a regular
// expression), one message per path even where several branches fail. Every `pattern` of the document
// needs its words in PATTERN_WORDS (test/platform/validation-messages.test.ts fails otherwise).

/** The words of each pattern of the document (the pattern as the document writes it). */
export const PATTERN_WORDS: Record<string, string> = {
  "^[A-Z]{4}[0-9]{5}[A-Z]$": 'must be a TAN: four capital letters, five digits and a capital letter, such as "BLRA12345F"',
  "^\\d{7}$": 'must be a bank branch\'s BSR code: seven digits, such as "0510308"',
  "^\\d{5}$": 'must be a challan serial number: five digits, such as "00123"',
  "^[0-9]{2}$": 'must be a state code of the e-TDS file format: two digits, such as "15" (Karnataka)',
  "^[1-9][0-9]{5}$": 'must be a PIN code: six digits not starting with 0, such as "560001"',
  "^[6-9][0-9]{9}$": 'must be an Indian mobile number: ten digits starting with 6-9, such as "9876543210"',
  "^[0-9]{15}$": 'must be a statement\'s token / receipt number: fifteen digits, such as "123456789012345"',
  "^[0-9]{1,20}$": 'must be a position in the event feed: digits only, such as "1042"',
  '^"[A-Za-z0-9_-]{1,60}"$': "must be an entity tag as an ETag header gave it, with its double quotes",
  '^(\\*|(W/)?"[!#-~]{0,60}"( {0,8}, {0,8}(W/)?"[!#-~]{0,60}"){0,15})$':
    'must be `*` or entity tags in double quotes, comma-separated: an ETag as it came, or a record\'s version as "<version>"',
  '^"[a-z][a-z0-9-]{0,40}";q=[1-9][0-9]{0,8};w=[1-9][0-9]{0,5}(, "[a-z][a-z0-9-]{0,40}";q=[1-9][0-9]{0,8};w=[1-9][0-9]{0,5}){0,3}$':
    "must be a list of rate-limit policies: a quoted name, then ;q= and ;w= (up to four, comma-separated)",
  '^"[a-z][a-z0-9-]{0,40}";r=[0-9]{1,9};t=[0-9]{1,6}(, "[a-z][a-z0-9-]{0,40}";r=[0-9]{1,9};t=[0-9]{1,6}){0,3}$':
    "must be a list of rate-limit states: a quoted name, then ;r= and ;t= (up to four, comma-separated)",
  "^[a-z][a-z0-9-]{0,40}:(read|write|manage)$": 'must be a scope as <area>:read, <area>:write or <area>:manage, such as "employees:read"',
  "^\\d{1,12}\\.\\d{2}$": 'must be an amount as a decimal string with two places, such as "48250.00"',
  "^-?\\d{1,12}\\.\\d{2}$": 'must be an amount as a decimal string with two places, such as "48250.00" or "-1200.00"',
  "^\\d{4}-(0[1-9]|1[0-2])$": 'must be a month as YYYY-MM, such as "2026-11"',
  "^\\d{1,4}(\\.[05])?$": 'must be a number of days in steps of half a day, such as "1", "1.5" or "12"',
  "^-?\\d{1,4}(\\.[05])?$": 'must be a number of days in steps of half a day, such as "1.5" or "-2"',
  "^\\d{1,3}(\\.\\d{1,4})?$": 'must be a percentage as a decimal string, such as "12" or "0.75"',
  "\\S": "must not be blank",
  "^[A-Z]{3}$": 'must be a three-letter currency code in capitals, such as "INR" or "AED"',
  "^[A-Z]{2}$": 'must be a two-letter country code in capitals, such as "IN" or "AE"',
  "^\\+?[0-9][0-9 ()-]{4,28}$": 'must be a phone number: digits, spaces, brackets and hyphens, with an optional leading "+"',
  "^[A-Za-z0-9][A-Za-z0-9/_-]{0,29}$": "must be a code of up to 30 letters, digits, /, _ or -, starting with a letter or digit",
  "^[A-Za-z0-9_-]{1,20}$": "must be a code of up to 20 letters, digits, _ or -",
  "^[A-Za-z0-9]{4,34}$": "must be a bank account number: 4 to 34 letters and digits",
  "^[A-Z]{4}0[A-Z0-9]{6}$": 'must be an IFSC: four capital letters, a zero and six letters or digits, such as "HDFC0001234"',
  "^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$": 'must be an IBAN in capitals without spaces, such as "AE070331234567890123456"',
  "^[0-9]{9}$": "must be a 9-digit bank routing code",
  "^[A-Za-z0-9]{1,35}$": "must be up to 35 letters and digits",
  "^[A-Z]{5}[0-9]{4}[A-Z]$": 'must be a PAN: five capital letters, four digits and a capital letter, such as "ABCPE1234F"',
  "^[A-Za-z]{5}[0-9]{4}[A-Za-z]$": 'must be a PAN: five letters, four digits and a letter, such as "ABCPE1234F"',
  "^20\\d{2}-\\d{2}$": 'must be a tax year as YYYY-YY, April to March, such as "2025-26"',
  "^\\d{4}-\\d{2}$": 'must be a month as YYYY-MM, such as "2026-11"',
  "^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$": 'must be a day of the year as MM-DD, such as "04-30"',
  "^[0-9]{12}$": "must be a 12-digit UAN",
  "^[0-9]{10}$": "must be a 10-digit number",
  "^[A-Za-z][A-Za-z0-9_]{0,29}$": "must be a code of up to 30 letters, digits or _, starting with a letter",
  "^[A-Za-z0-9._/-]{0,49}$": "must be up to 50 letters, digits, ., _, / or -",
  "^[A-Za-z0-9][A-Za-z0-9._/-]{0,49}$": "must be a tag of up to 50 letters, digits, ., _, / or -, starting with a letter or digit",
  "^[A-Za-z0-9_-]+$": "must be letters, digits, _ or - only",
  "^https?://": "must be an http:// or https:// URL",
  "^-?\\d{1,13}\\.\\d{2}$": 'must be an amount as a decimal string with two places, such as "48250.00" or "-1200.00"',
  "^[0-9]+\\.[0-9]{2}$": 'must be an amount as a decimal string with two places, such as "48250.00"',
  "^\\d+\\.\\d{2}$": 'must be an amount as a decimal string with two places, such as "48250.00"',
  "^-?\\d{1,5}\\.[05]$": 'must be a number of days with one decimal, in steps of half a day, such as "1.0", "2.5" or "-1.5"',
  "^\\d{1,2}\\.[05]$": 'must be a number of days with one decimal, in steps of half a day, such as "1.0" or "2.5"',
  "^\\d{1,3}\\.[05]$": 'must be a number of days with one decimal, in steps of half a day, such as "1.0" or "12.5"',
  "^-?\\d{1,3}\\.[05]$": 'must be a number of days with one decimal, in steps of half a day, such as "1.5" or "-2.0"',
  "^\\d{1,2}(\\.\\d{1,2})?$": 'must be a number of hours up to two decimals, such as "8" or "7.5"',
  "^([01]\\d|2[0-3]):[0-5]\\d$": 'must be a time of day as HH:MM on the 24-hour clock, such as "09:30"',
  "^\\d{1,13}$": "must be a whole number of up to 13 digits, as a string",
  "^\\d{9}$": "must be 9 digits",
  "^[0-9a-f]{64}$": "must be 64 lower-case hexadecimal digits (a SHA-256)",
  "^([^,\\r\\n=+@\\t-][^,\\r\\n]*)?$":
    "must not contain commas or line breaks, nor start with =, +, -, @ or a tab (a spreadsheet would read it as a formula)",
  '^"[a-z][a-z0-9-]{0,40}";r=0;t=[1-9][0-9]{0,5}$': 'must be a RateLimit field: "<policy>";r=0;t=<seconds>',
  '^"[a-z][a-z0-9-]{0,40}";q=[1-9][0-9]{0,8}(;w=[1-9][0-9]{0,6})?$': 'must be a RateLimit-Policy field: "<policy>";q=<quota>;w=<window>',
};

const FORMAT_WORDS: Record<string, string> = {
  date: 'must be a date as YYYY-MM-DD, such as "2026-11-28"',
  "date-time": 'must be an instant in ISO 8601 with its offset, such as "2026-11-28T09:30:00Z"',
  uuid: 'must be a UUID, such as "3f2b8c1e-8d4a-4f6b-9c2e-1a5d7e9f0b21"',
  email: 'must be an e-mail address, such as "priya@acme.example"',
  uri: 'must be a URL, such as "https://meet.example.com/interview"',
  int32: "must be a whole number",
  int64: "must be a whole number",
};

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  integer: "a whole number",
  number: "a number",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  null: "null",
};

/**
 * The words of the form a text field's schema asks for (its pattern's or format's), or undefined: what a
 * value of another JSON type at that field is told (`100` for an amount: "must be an amount as a decimal
 * string with two places", not just "must be a string"). `schema` with its `$ref`s followed.
 */
export function expectedFormOf(schema: { pattern?: unknown; format?: unknown } | undefined): string | undefined {
  if (!schema) return undefined;
  if (typeof schema.pattern === "string" && PATTERN_WORDS[schema.pattern]) return PATTERN_WORDS[schema.pattern];
  if (typeof schema.format === "string" && FORMAT_WORDS[schema.format] && !schema.format.startsWith("int"))
    return FORMAT_WORDS[schema.format];
  return undefined;
}

export interface ValidatorError {
  path?: unknown;
  message?: unknown;
  errorCode?: unknown;
}

/** The rule a validator error is about (ajv's keyword, from express-openapi-validator's errorCode). */
const ruleOf = (e: ValidatorError) => String(e.errorCode ?? "").replace(/\.openapi\.validation$/, "");

/** One validator error in words (undefined: leave it to its siblings, e.g. a oneOf summary). */
function words(e: ValidatorError): string | undefined {
  const message = String(e.message ?? "is invalid");
  const rule = ruleOf(e);
  if (rule === "pattern") {
    const pattern = /^must match pattern "(.*)"$/s.exec(message)?.[1];
    return (pattern && PATTERN_WORDS[pattern]) ?? "is not in the expected form (see the field's description in the document)";
  }
  if (rule === "format") {
    const format = /^must match format "(.*)"$/.exec(message)?.[1] ?? "";
    return FORMAT_WORDS[format] ?? `must be a valid ${format}`;
  }
  if (rule === "enum") {
    const values = /allowed values: (.*)$/s.exec(message)?.[1];
    return values ? `must be one of: ${values}` : message;
  }
  if (rule === "type") {
    const types = /^must be (.*)$/.exec(message)?.[1]?.split(",") ?? [];
    return types.length ? `must be ${types.map((t) => TYPE_WORDS[t] ?? t).join(" or ")}` : message;
  }
  if (rule === "required") return "is required";
  // `maxLength: 0`: a parameter the operation declares refused (the Idempotency-Key of an answer with a secret)
  if (rule === "not" || (rule === "maxLength" && /NOT have more than 0 characters/.test(message)))
    return "is not accepted by this operation (see the parameter's description in the document)";
  if (rule === "oneOf" || rule === "anyOf") return undefined;
  if (rule === "minimum" || rule === "maximum" || rule === "exclusiveMinimum" || rule === "exclusiveMaximum") {
    const m = /^must be ([<>]=?) (.*)$/.exec(message);
    const op = { ">=": "at least", "<=": "at most", ">": "more than", "<": "less than" }[m?.[1] ?? ""];
    return m && op ? `must be ${op} ${m[2]}` : message;
  }
  if (rule === "minLength" && /fewer than 1 characters/.test(message)) return "must not be empty";
  if (rule === "minItems" && /fewer than 1 items/.test(message)) return "must not be an empty list";
  return message.replace(/^must NOT /, "must not ");
}

/**
 * The validator's errors as `details`: one per path, in words. Of the errors at one path, the one
 * that says what is expected (pattern, format, enumeration) wins over a bare type; a path whose
 * schema also allows null says "or null" instead of a second message.
 */
export function detailsInWords(errors: ValidatorError[], pathOf: (e: ValidatorError) => string): { path: string; message: string }[] {
  const byPath = new Map<string, ValidatorError[]>();
  for (const e of errors) {
    const p = pathOf(e);
    byPath.set(p, [...(byPath.get(p) ?? []), e]);
  }
  const out: { path: string; message: string }[] = [];
  const rank = (e: ValidatorError) => ["pattern", "format", "enum", "const"].indexOf(ruleOf(e)) + 1 || (ruleOf(e) === "type" ? 10 : 5);
  for (const [path, group] of byPath) {
    const allowsNull = group.some((e) => ruleOf(e) === "type" && /^must be null$/.test(String(e.message)));
    const candidates = group.filter((e) => !(ruleOf(e) === "type" && /^must be null$/.test(String(e.message))));
    const best = [...candidates].sort((a, b) => rank(a) - rank(b)).find((e) => words(e) !== undefined);
    if (!best) {
      out.push({
        path,
        message: allowsNull ? "must be null or a value of the documented form" : "is not valid for any of the documented forms",
      });
      continue;
    }
    // several independent mistakes at one path (an object missing two fields) keep a message each
    const rest = candidates.filter((e) => e !== best && ["required", "additionalProperties"].includes(ruleOf(e)));
    out.push({ path, message: `${words(best)}${allowsNull ? " (or null)" : ""}` });
    for (const e of rest) if (words(e) !== words(best)) out.push({ path, message: words(e) as string });
  }
  return out;
}

/** Edit distance of two short strings (path segments). */
export function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** How far a path segment is from the one asked: edits, or 2 when the asked one is a word of it (`runs` of `draft-runs`). */
function segmentDistance(documented: string, asked: string): number {
  const d = distance(documented, asked);
  return d > 2 && asked.length >= 3 && documented.split("-").includes(asked) ? 2 : d;
}

/**
 * The route a mistyped path most likely meant: the one path with as many segments within two edits of the
 * request's fixed segments (`/api/employee` → `/api/employees`); none on a tie.
 */
export function nearestRoute(requestPath: string, paths: Iterable<string>): string | undefined {
  if (requestPath.length > 300) return undefined;
  let end = requestPath.length;
  while (end > 1 && requestPath[end - 1] === "/") end--;
  const asked = requestPath.slice(0, end).split("/");
  if (asked.length > 12) return undefined;
  let best: { path: string; d: number } | undefined;
  let tie = false;
  for (const p of new Set(paths)) {
    const parts = p.split("/");
    if (parts.length !== asked.length) continue;
    let d = 0;
    for (let i = 0; i < parts.length && d <= 2; i++)
      if (!parts[i].startsWith("{")) d += segmentDistance(parts[i].toLowerCase(), asked[i].toLowerCase());
    if (d > 2) continue;
    const filled = parts.map((s, i) => (s.startsWith("{") ? asked[i] : s)).join("/");
    if (!best || d < best.d) {
      best = { path: filled, d };
      tie = false;
    } else if (d === best.d && filled !== best.path) tie = true;
  }
  return best && best.d > 0 && !tie ? best.path : undefined;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** For a date in the right form that names no day of the calendar: what is wrong with it. */
export function impossibleDate(value: unknown): string | undefined {
  const m = typeof value === "string" ? /^(\d{4})-(\d{2})-(\d{2})(T|$)/.exec(value) : null;
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12) return `is not a date that exists: there is no month ${m[2]} (months are 01 to 12)`;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d < 1 || d > days) return `is not a date that exists: ${MONTHS[mo - 1]} ${y} has ${days} days`;
  return undefined;
}
