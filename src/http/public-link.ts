// `/assets/public-link.js`: the script of the candidate's pages (getPublicOfferPage; the content
// security policy allows scripts of this server only, no inline ones). A button with `data-action`
// POSTs to that operation (JSON, same origin), after `data-confirm` where given, then shows
// `data-done` - or the error envelope's text - in the page's live region and disables the buttons.
import type { RequestHandler } from "express";

const SCRIPT = `"use strict";
document.documentElement.dataset.actions = "ready"; // the buttons work (a test reads it)
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
  const status = document.querySelector("[role=status]");
  const buttons = document.querySelectorAll("button[data-action]");
  buttons.forEach((b) => { b.disabled = true; });
  status.textContent = "Sending your answer…";
  try {
    const res = await fetch(button.dataset.action, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(body.error || "The answer could not be saved (" + res.status + ")");
    status.textContent = button.dataset.done;
  } catch (err) {
    status.textContent = err.message + ". Please try again.";
    buttons.forEach((b) => { b.disabled = false; });
  }
});
`;

export const publicLinkScript: RequestHandler = (_req, res) => {
  res.setHeader("Cache-Control", "public, max-age=3600");
  res.type("text/javascript").send(SCRIPT);
};
