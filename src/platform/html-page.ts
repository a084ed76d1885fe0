// The frame of the server's few pages for people: one accessible layout, no inline script (the CSP allows
// this server's scripts only), and `esc` for everything a person or company wrote.

/** HTML-escapes text for element content and attribute values. */
export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

/** A whole page: `title` is escaped here, `main` is HTML the caller escaped. */
export function page(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${esc(title)}</title>
<style>
body { font: 17px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; color: #111; background: #fff; margin: 0; }
main { max-width: 42rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
h1 { font-size: 1.6rem; line-height: 1.25; } dl { display: grid; grid-template-columns: max-content 1fr; gap: .4rem 1.25rem; }
dt { font-weight: 600; } dd { margin: 0; } .actions { display: flex; gap: .75rem; flex-wrap: wrap; margin: 1.5rem 0; }
button, .button { font: inherit; padding: .6rem 1.2rem; border-radius: 6px; border: 2px solid #0b4f9c; cursor: pointer; }
.primary { background: #0b4f9c; color: #fff; } .secondary { background: #fff; color: #0b4f9c; text-decoration: none; }
input { font: inherit; padding: .4rem .5rem; width: min(100%, 24rem); } .hint { color: #444; font-size: .9rem; margin: .2rem 0 0; }
button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
[role=status] { font-weight: 600; min-height: 1.5em; } .terms { white-space: pre-wrap; }
</style>
</head>
<body>
<main>
${main}
</main>
<script src="/assets/public-link.js" defer></script>
</body>
</html>
`;
}
