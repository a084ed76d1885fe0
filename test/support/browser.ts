// A real headless Chromium driven over the DevTools protocol (Node's own WebSocket, no library): open
// a page, run script in it as a person's actions would (fill a field, press a button), wait for what
// the page then shows. Debian's `chromium` is installed by `make unit` (scripts/support/ensure-chromium.sh)
// where it is missing, so these tests never skip; a missing browser fails with how to install it.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A message of the Chrome DevTools Protocol: a command's answer (`id`) or an event (`method`). */
interface CdpMessage {
  id?: number;
  method?: string;
  sessionId?: string;
  error?: unknown;
  result?: unknown;
}

export const chromiumPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) => existsSync(p));

export type Browser = {
  /** Opens `url` in a new tab and waits for its load event. */
  open(url: string): Promise<void>;
  /** The value of `expression` evaluated in the page (awaited when a promise). */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Polls `expression` until it is truthy (60 s at most; a hang, not a timing assertion). */
  waitFor<T = unknown>(expression: string): Promise<T>;
  close(): Promise<void>;
};

export async function launchBrowser(): Promise<Browser> {
  if (!chromiumPath) throw new Error("No Chromium: run scripts/support/ensure-chromium.sh (as root: apt-get install chromium)");
  const profile = mkdtempSync(path.join(tmpdir(), "hrms-chromium-"));
  const proc: ChildProcess = spawn(
    chromiumPath,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const wsUrl = await new Promise<string>((resolve, reject) => {
    let err = "";
    proc.stderr!.on("data", (b: Buffer) => {
      err += b.toString();
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    proc.once("exit", (code) => reject(new Error(`chromium exited (${code}): ${err.slice(-2000)}`)));
  });
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners: Array<(msg: CdpMessage) => void> = [];
  ws.onmessage = (event) => {
    const msg = JSON.parse(String(event.data)) as CdpMessage;
    if (msg.id && pending.has(msg.id)) {
      const p = pending.get(msg.id)!;
      pending.delete(msg.id);
      if (msg.error) p.reject(new Error(JSON.stringify(msg.error)));
      else p.resolve(msg.result);
    } else for (const l of listeners) l(msg);
  };
  const send = <T = Record<string, unknown>>(method: string, params: object = {}, sessionId?: string) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: (v) => resolve(v as T), reject });
      ws.send(JSON.stringify({ id, method, params, sessionId }));
    });
  let session: string | undefined;
  const evaluate = async <T>(expression: string): Promise<T> => {
    const r = await send<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
      "Runtime.evaluate",
      { expression, awaitPromise: true, returnByValue: true },
      session,
    );
    if (r.exceptionDetails) throw new Error(`in the page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value as T;
  };
  return {
    async open(url) {
      const { targetId } = await send<{ targetId: string }>("Target.createTarget", { url: "about:blank" });
      session = (await send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true })).sessionId;
      await send("Page.enable", {}, session);
      // a confirm() dialog is accepted, as a person would
      await send("Runtime.enable", {}, session);
      listeners.push((msg) => {
        if (msg.method === "Page.javascriptDialogOpening" && msg.sessionId === session)
          void send("Page.handleJavaScriptDialog", { accept: true }, session);
      });
      const loaded = new Promise<void>((resolve) =>
        listeners.push((msg) => msg.method === "Page.loadEventFired" && msg.sessionId === session && resolve()),
      );
      await send("Page.navigate", { url }, session);
      await loaded;
    },
    evaluate,
    async waitFor<T>(expression: string) {
      for (let i = 0; i < 600; i++) {
        const v = await evaluate<T>(expression);
        if (v) return v;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the page never showed: ${expression}`);
    },
    async close() {
      ws.close();
      proc.kill("SIGKILL");
      await new Promise((r) => (proc.exitCode !== null ? r(null) : proc.once("exit", r)));
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
