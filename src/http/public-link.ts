// `/assets/public-link.js`: the script of the candidate's and account pages (no inline scripts). `data-action`
// buttons POST JSON there (after `data-confirm`), then show `data-done` or the error in the live region;
// `data-upload` forms go as multipart, `data-json` forms as JSON of their non-empty fields (`data-integer` as
// numbers, `data-next` a link onward); a `data-notice` section gets that operation's privacy notice.
import type { RequestHandler } from "express";

const SCRIPT = `"use strict";
document.documentElement.dataset.actions = "ready"; // the buttons work (a test reads it)
for (const section of document.querySelectorAll("[data-notice]")) {
  const text = section.querySelector("[data-notice-text]");
  fetch(section.dataset.notice)
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
    .then(({ data }) => {
      text.textContent = data.text;
      for (const p of data.purposes) {
        const item = document.createElement("li");
        item.textContent = p.purpose;
        section.querySelector("[data-notice-purposes]").append(item);
      }
    })
    .catch(() => { text.textContent = "The privacy notice could not be loaded; ask the company for it."; });
}
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
document.addEventListener("submit", async (event) => {
  const form = event.target.closest("form[data-upload]");
  if (!form) return;
  event.preventDefault();
  const status = document.querySelector("[role=status]");
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  status.textContent = "Uploading…";
  try {
    const res = await fetch(form.dataset.upload, { method: "POST", body: new FormData(form) });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(body.error || "The upload failed (" + res.status + ")");
    status.textContent = form.dataset.done;
    window.setTimeout(() => window.location.reload(), 1500);
  } catch (err) {
    status.textContent = err.message + ". Please try again.";
    button.disabled = false;
  }
});
document.addEventListener("submit", async (event) => {
  const form = event.target.closest("form[data-json]");
  if (!form) return;
  event.preventDefault();
  const status = form.parentElement.querySelector("[role=status]");
  const button = form.querySelector("button[type=submit]");
  const body = {};
  for (const el of form.elements) {
    if (!el.name || el.value === "" || ((el.type === "checkbox" || el.type === "radio") && !el.checked)) continue;
    body[el.name] = "integer" in el.dataset ? Number(el.value) : el.value;
  }
  button.disabled = true;
  status.textContent = "Sending…";
  try {
    const headers = { "content-type": "application/json" };
    const res = await fetch(form.dataset.json, { method: "POST", headers, body: JSON.stringify(body) });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) {
      const details = (answer.details || []).map((d) => d.message).join("; ");
      throw new Error((answer.error || "The request failed (" + res.status + ")") + (details ? ": " + details : ""));
    }
    form.hidden = true;
    status.textContent = form.dataset.done + " ";
    if (form.dataset.next) {
      const link = document.createElement("a");
      link.href = form.dataset.next;
      link.textContent = form.dataset.nextText;
      status.append(link);
    }
  } catch (err) {
    status.textContent = err.message + ". Please try again.";
    button.disabled = false;
  }
});
`;

export const publicLinkScript: RequestHandler = (_req, res) => {
  res.setHeader("Cache-Control", "public, max-age=3600");
  res.type("text/javascript").send(SCRIPT);
};
