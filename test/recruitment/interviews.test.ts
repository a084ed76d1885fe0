// Interviews (panel rounds, interviewers, the status machine, feedback on the panel's scale,
// interviewer-only outcome recording) and interview sessions (the candidate-facing invitation,
// mailed through the outbox and delivered to a real SMTP server on loopback).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import * as clock from "../../src/lib/clock.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { addMember, expectDetails, expectError, useTestApp } from "../support/app.ts";
import { startMailSink, type MailSink } from "../support/mail.ts";
import { addCandidate, advance, isoIn, openPosting, recruitingCompany, type Company } from "./fixtures.ts";

const t = useTestApp();
let c: Company;
let posting: Awaited<ReturnType<typeof openPosting>>;
let mail: MailSink;

beforeAll(async () => {
  mail = await startMailSink();
  registerAllJobs();
  await jobs.start(t.url, t.configWith({ smtpUrl: mail.url })); // the worker delivers to the sink
  c = await recruitingCompany(t);
  posting = await openPosting(c.hr.agent);
});
afterAll(async () => {
  await jobs.stop();
  await mail.close();
});

async function screened() {
  const cand = await addCandidate(c.hr.agent, posting.id);
  await advance(c.hr.agent, cand.id, "screening");
  return cand;
}
// business time (the clock the server reads), not the database's now(): the calendar proof moves it
const hoursAgo = (hours: number) => new Date(clock.nowMs() - hours * 3_600_000);
const past = (id: string) => t.query(`UPDATE interviews SET scheduled_at = $2 WHERE id = $1`, [id, hoursAgo(2)]);

describe("listInterviews, createInterview, getInterview, updateInterview, deleteInterview: interviews", () => {
  it("schedules from a panel round, moves the candidate to interview and tells the interviewers", async () => {
    await api(c.hr.agent)
      .op("updateInterviewPanel", {
        body: {
          rounds: [
            { name: "Culture", sequence: 1, duration_minutes: 30, mode: "phone", interviewer_user_ids: [c.hr.userId] },
            {
              name: "System design",
              sequence: 2,
              duration_minutes: 90,
              mode: "video",
              interviewer_user_ids: [c.manager.userId, c.employee.userId],
            },
          ],
          rating_scale: 10,
          feedback_deadline_hours: 24,
        },
      })
      .expect(200);
    const cand = await screened();
    const at = isoIn(3);
    const i = await api(c.hr.agent)
      .op("createInterview", {
        body: { candidate_id: cand.id, round_sequence: 2, scheduled_at: at, meeting_url: "https://meet.example.com/abc" },
      })
      .expect(201);
    // The employee-role default interviewer is left out; the manager stays.
    expect(i.body.data).toMatchObject({
      round_name: "System design",
      round_sequence: 2,
      duration_minutes: 90,
      mode: "video",
      status: "scheduled",
      candidate_name: cand.full_name,
      posting_id: posting.id,
      interviewers: [{ user_id: c.manager.userId, name: "Manoj Manager" }],
    });
    expect(i.body.data.feedback_due_at).toBe(new Date(Date.parse(at) + (90 * 60 + 24 * 3600) * 1000).toISOString());
    expect(
      (
        await api(c.hr.agent)
          .op("getCandidate", { params: { id: cand.id } })
          .expect(200)
      ).body.data.stage,
    ).toBe("interview");
    const notes = await api(c.manager.agent).op("listNotifications").expect(200);
    expect(notes.body.data.some((n) => n.kind === "recruitment.interview_scheduled" && n.title.includes(cand.last_name))).toBe(true);
    const m = await mail.waitFor(c.manager.email);
    expect(m.text).toContain("System design interview with");
    expect(m.text).toContain("https://meet.example.com/abc");
    // Back to the defaults for the other tests.
    await api(c.hr.agent)
      .op("updateInterviewPanel", {
        body: {
          rounds: [{ name: "Technical", sequence: 1, duration_minutes: 60, mode: "video", interviewer_user_ids: [] }],
          rating_scale: 5,
        },
      })
      .expect(200);
  });

  it("validates input: round, interviewers, time, meeting link, candidate stage", async () => {
    const cand = await screened();
    const base = {
      candidate_id: cand.id,
      scheduled_at: isoIn(2),
      mode: "phone",
      round_name: "Tech",
      interviewer_user_ids: [c.manager.userId],
    };
    expect(
      expectDetails(await c.hr.agent.post("/api/recruitment/interviews").send({ ...base, round_sequence: 9, round_name: undefined }), 400)
        .details[0].path,
    ).toBe("body.round_sequence");
    expect(
      expectDetails(await c.hr.agent.post("/api/recruitment/interviews").send({ ...base, round_name: undefined }), 400).details[0].path,
    ).toBe("body.round_name");
    expect(
      expectDetails(await c.hr.agent.post("/api/recruitment/interviews").send({ ...base, interviewer_user_ids: [c.employee.userId] }), 400)
        .details[0].path,
    ).toBe("body.interviewer_user_ids.0");
    expect(
      expectDetails(await c.hr.agent.post("/api/recruitment/interviews").send({ ...base, interviewer_user_ids: undefined }), 400).details[0]
        .path,
    ).toBe("body.interviewer_user_ids");
    expect(
      expectDetails(await c.hr.agent.post("/api/recruitment/interviews").send({ ...base, scheduled_at: isoIn(-1) }), 400).details[0].path,
    ).toBe("body.scheduled_at");
    expect(expectDetails(await api(c.hr.agent).op("createInterview", { body: { ...base, mode: "video" } }), 400).details[0].path).toBe(
      "body.meeting_url",
    );
    expectError(await c.hr.agent.post("/api/recruitment/interviews").send({ ...base, meeting_url: "ftp://x" }), 400, "validation_failed");
    expectError(await c.hr.agent.post("/api/recruitment/interviews").send({ ...base, duration_minutes: 5 }), 400, "validation_failed");
    expect(
      expectDetails(
        await c.hr.agent.post("/api/recruitment/interviews").send({ ...base, candidate_id: "00000000-0000-4000-8000-000000000000" }),
        400,
      ).details[0].path,
    ).toBe("body.candidate_id");
    const applied = await addCandidate(c.hr.agent, posting.id);
    expectError(await c.hr.agent.post("/api/recruitment/interviews").send({ ...base, candidate_id: applied.id }), 409, "conflict");
    expectError(await c.manager.agent.post("/api/recruitment/interviews").send(base), 403, "forbidden");
  });

  it("completes with a rating on the panel's scale and feedback; completed is final", async () => {
    const cand = await screened();
    const i = await api(c.hr.agent)
      .op("createInterview", {
        body: {
          candidate_id: cand.id,
          round_name: "Tech",
          scheduled_at: isoIn(1),
          mode: "phone",
          interviewer_user_ids: [c.manager.userId],
        },
      })
      .expect(201);
    const id = i.body.data.id;
    expectError(
      await api(c.manager.agent).op("updateInterview", { params: { id }, body: { status: "completed", rating: 4, feedback: "Good" } }),
      409,
      "conflict",
    );
    await past(id);
    expect(
      expectDetails(
        await api(c.manager.agent).op("updateInterview", { params: { id }, body: { status: "completed", rating: 6, feedback: "Good" } }),
        400,
      ).details[0].path,
    ).toBe("body.rating");
    expect(
      expectDetails(
        await api(c.manager.agent).op("updateInterview", { params: { id }, body: { status: "completed", feedback: "Good" } }),
        400,
      ).details[0].path,
    ).toBe("body.rating");
    expect(
      expectDetails(await api(c.manager.agent).op("updateInterview", { params: { id }, body: { status: "completed", rating: 4 } }), 400)
        .details[0].path,
    ).toBe("body.feedback");
    expect(expectDetails(await api(c.hr.agent).op("updateInterview", { params: { id }, body: { rating: 4 } }), 400).details[0].path).toBe(
      "body.rating",
    );
    // An interviewer records the outcome only.
    expectError(await api(c.manager.agent).op("updateInterview", { params: { id }, body: { status: "cancelled" } }), 403, "forbidden");
    expectError(
      await api(c.manager.agent).op("updateInterview", {
        params: { id },
        body: { status: "completed", rating: 4, feedback: "ok", duration_minutes: 30 },
      }),
      403,
      "forbidden",
    );
    const done = await api(c.manager.agent)
      .op("updateInterview", {
        params: { id },
        body: { status: "completed", rating: 4, recommendation: "hire", feedback: "Strong on design." },
      })
      .expect(200);
    expect(done.body.data).toMatchObject({
      status: "completed",
      rating: 4,
      rating_scale: 5,
      recommendation: "hire",
      feedback: "Strong on design.",
      feedback_by_user_id: c.manager.userId,
    });
    expect(done.body.data.completed_at).not.toBeNull();
    expectError(await api(c.hr.agent).op("updateInterview", { params: { id }, body: { status: "cancelled" } }), 409, "conflict");
    expectError(await api(c.hr.agent).op("updateInterview", { params: { id }, body: { scheduled_at: isoIn(5) } }), 409, "conflict");
    expectError(await api(c.hr.agent).op("deleteInterview", { params: { id } }), 409, "conflict");
    const hrNotes = await api(c.hr.agent).op("listNotifications").expect(200);
    expect(hrNotes.body.data.some((n) => n.kind === "recruitment.interview_feedback" && n.title.includes("4/5"))).toBe(true);
    const log = await api(c.owner.agent)
      .op("listActivityLog", { query: { entity_id: id } })
      .expect(200);
    const change = log.body.data.find((e) => e.action === "recruitment.interview_status_changed")!.changes;
    expect(change).toMatchObject({ status: { from: "scheduled", to: "completed" }, rating: { from: null, to: 4 } });
    const [row] = await t.query(`SELECT status, rating, rating_scale, feedback_by::text FROM interviews WHERE id = $1`, [id]);
    expect(row).toMatchObject({ status: "completed", rating: 4, rating_scale: 5, feedback_by: c.manager.userId });
  });

  it("cancels and records no-shows; reschedules tell the interviewers", async () => {
    const cand = await screened();
    const mk = async () =>
      (
        await api(c.hr.agent)
          .op("createInterview", {
            body: {
              candidate_id: cand.id,
              round_name: "HR",
              scheduled_at: isoIn(2),
              mode: "in_person",
              location: "Pune office",
              interviewer_user_ids: [c.manager.userId],
            },
          })
          .expect(201)
      ).body.data.id;
    const a = await mk();
    const moved = await api(c.hr.agent)
      .op("updateInterview", { params: { id: a }, body: { scheduled_at: isoIn(4), interviewer_user_ids: [c.manager.userId, c.hr.userId] } })
      .expect(200);
    expect(moved.body.data.interviewers.map((x) => x.user_id)).toEqual([c.manager.userId, c.hr.userId]);
    expect(
      (await api(c.manager.agent).op("listNotifications").expect(200)).body.data.some(
        (n) => n.kind === "recruitment.interview_rescheduled",
      ),
    ).toBe(true);
    expectError(await api(c.hr.agent).op("updateInterview", { params: { id: a }, body: { cancel_reason: "x" } }), 400, "validation_failed");
    const cancelled = await api(c.hr.agent)
      .op("updateInterview", { params: { id: a }, body: { status: "cancelled", cancel_reason: "Candidate asked" } })
      .expect(200);
    expect(cancelled.body.data).toMatchObject({ status: "cancelled", cancel_reason: "Candidate asked" });
    expectError(await api(c.hr.agent).op("updateInterview", { params: { id: a }, body: { status: "scheduled" } }), 409, "conflict");
    const b = await mk();
    expectError(await api(c.hr.agent).op("updateInterview", { params: { id: b }, body: { status: "no_show" } }), 409, "conflict");
    await past(b);
    await api(c.hr.agent)
      .op("updateInterview", { params: { id: b }, body: { status: "no_show" } })
      .expect(200);
    expectError(
      await api(c.hr.agent).op("updateInterview", { params: { id: b }, body: { status: "completed", rating: 3, feedback: "x" } }),
      409,
      "conflict",
    );
    const d = await mk();
    await api(c.hr.agent)
      .op("deleteInterview", { params: { id: d } })
      .expect(200);
    expectError(await api(c.hr.agent).op("getInterview", { params: { id: d } }), 404, "not_found");
  });

  it("shows managers only the interviews they are on; lists filter by candidate, status, interviewer and time", async () => {
    const cand = await screened();
    const mine = await api(c.hr.agent)
      .op("createInterview", {
        body: { candidate_id: cand.id, round_name: "A", scheduled_at: isoIn(6), mode: "phone", interviewer_user_ids: [c.manager.userId] },
      })
      .expect(201);
    const other = await api(c.hr.agent)
      .op("createInterview", {
        body: { candidate_id: cand.id, round_name: "B", scheduled_at: isoIn(7), mode: "phone", interviewer_user_ids: [c.hr.userId] },
      })
      .expect(201);
    const m = await api(c.manager.agent)
      .op("listInterviews", { query: { candidate_id: cand.id } })
      .expect(200);
    expect(m.body.data.map((x) => x.id)).toEqual([mine.body.data.id]);
    const one = await api(c.manager.agent)
      .op("getInterview", { params: { id: mine.body.data.id } })
      .expect(200);
    expect(one.body.data).toMatchObject({
      id: mine.body.data.id,
      round_name: "A",
      mode: "phone",
      status: "scheduled",
      candidate_id: cand.id,
    });
    expect(one.body.data.interviewers.map((x) => x.user_id)).toEqual([c.manager.userId]);
    expectError(await api(c.manager.agent).op("getInterview", { params: { id: other.body.data.id } }), 404, "not_found");
    expectError(
      await api(c.manager.agent).op("updateInterview", {
        params: { id: other.body.data.id },
        body: { status: "completed", rating: 3, feedback: "x" },
      }),
      404,
      "not_found",
    );
    expectError(await api(c.manager.agent).op("deleteInterview", { params: { id: mine.body.data.id } }), 403, "forbidden");
    const all = await api(c.hr.agent)
      .op("listInterviews", { query: { candidate_id: cand.id } })
      .expect(200);
    expect(all.body.data.map((x) => x.round_name)).toEqual(["A", "B"]);
    const byWho = await api(c.hr.agent)
      .op("listInterviews", { query: { candidate_id: cand.id, interviewer_user_id: c.hr.userId } })
      .expect(200);
    expect(byWho.body.data.map((x) => x.id)).toEqual([other.body.data.id]);
    const window = await api(c.hr.agent)
      .op("listInterviews", { query: { candidate_id: cand.id, from: isoIn(6, 0), to: isoIn(7, 0) } })
      .expect(200);
    expect(window.body.data.map((x) => x.id)).toEqual([mine.body.data.id]);
    expect(
      (
        await api(c.hr.agent)
          .op("listInterviews", { query: { candidate_id: cand.id, status: "completed" } })
          .expect(200)
      ).body.data,
    ).toEqual([]);
    expectError(await api(c.employee.agent).op("listInterviews"), 403, "forbidden");
  });
});

describe(
  "listInterviewSessions, createInterviewSession, getInterviewSession, updateInterviewSession, " +
    "deleteInterviewSession, sendInterviewSession: interview management sessions",
  () => {
    it("sends the candidate the interview details by email", async () => {
      const cand = await screened();
      const i = await api(c.hr.agent)
        .op("createInterview", {
          body: {
            candidate_id: cand.id,
            round_name: "Technical",
            scheduled_at: isoIn(3, 9),
            mode: "video",
            meeting_url: "https://meet.example.com/xyz-123",
            interviewer_user_ids: [c.manager.userId],
          },
        })
        .expect(201);
      const s = await api(c.hr.agent)
        .op("createInterviewSession", {
          body: { candidate_id: cand.id, interview_id: i.body.data.id, instructions: "Keep your ID ready." },
        })
        .expect(201);
      expect(s.body.data).toMatchObject({
        status: "scheduled",
        sent_at: null,
        send_count: 0,
        mode: "video",
        meeting_url: "https://meet.example.com/xyz-123",
        duration_minutes: 60,
        scheduled_at: i.body.data.scheduled_at,
        candidate_email: cand.email,
        title: `Technical interview - ${posting.title}`,
      });
      const sent = await api(c.hr.agent)
        .op("sendInterviewSession", { params: { id: s.body.data.id } })
        .expect(200);
      expect(sent.body.data.send_count).toBe(1);
      expect(sent.body.data.sent_at).not.toBeNull();
      const m = await mail.waitFor(cand.email);
      const text = m.text;
      expect(m.subject).toContain("Interview invitation: Technical interview");
      expect(text).toContain("https://meet.example.com/xyz-123");
      expect(text).toContain("Keep your ID ready.");
      expect(text).toContain("Asia/Kolkata");
      await api(c.hr.agent)
        .op("sendInterviewSession", { params: { id: s.body.data.id } })
        .expect(200);
      const [row] = await t.query(`SELECT send_count FROM interview_sessions WHERE id = $1`, [s.body.data.id]);
      expect(row.send_count).toBe(2);
      const log = await api(c.owner.agent)
        .op("listActivityLog", { query: { entity_id: s.body.data.id, action: "recruitment.session_sent" } })
        .expect(200);
      expect(log.body.data).toHaveLength(2);
      // A sent session is cancelled (the candidate is told), not deleted.
      expectError(await api(c.hr.agent).op("deleteInterviewSession", { params: { id: s.body.data.id } }), 409, "conflict");
      await api(c.hr.agent)
        .op("updateInterviewSession", { params: { id: s.body.data.id }, body: { status: "cancelled" } })
        .expect(200);
      const outbox = await t.query<{ subject: string }>(`SELECT subject FROM email_outbox WHERE to_address = $1 ORDER BY created_at`, [
        cand.email,
      ]);
      expect(outbox.map((r) => r.subject.split(":")[0])).toEqual(["Interview invitation", "Interview invitation", "Cancelled"]);
      expectError(await api(c.hr.agent).op("sendInterviewSession", { params: { id: s.body.data.id } }), 409, "conflict");
      expectError(
        await api(c.hr.agent).op("updateInterviewSession", { params: { id: s.body.data.id }, body: { status: "scheduled" } }),
        409,
        "conflict",
      );
      await api(c.hr.agent)
        .op("deleteInterviewSession", { params: { id: s.body.data.id } })
        .expect(200);
    });

    it("validates sessions and follows scheduled → completed | cancelled", async () => {
      const cand = await screened();
      expect(
        expectDetails(await api(c.hr.agent).op("createInterviewSession", { body: { candidate_id: cand.id } }), 400).details[0].path,
      ).toBe("body.scheduled_at");
      expect(
        expectDetails(await api(c.hr.agent).op("createInterviewSession", { body: { candidate_id: cand.id, scheduled_at: isoIn(2) } }), 400)
          .details[0].path,
      ).toBe("body.meeting_url");
      expect(
        expectDetails(
          await api(c.hr.agent).op("createInterviewSession", {
            body: { candidate_id: cand.id, scheduled_at: isoIn(2), mode: "in_person" },
          }),
          400,
        ).details[0].path,
      ).toBe("body.location");
      const other = await screened();
      const iv = await api(c.hr.agent)
        .op("createInterview", {
          body: { candidate_id: other.id, round_name: "X", scheduled_at: isoIn(2), mode: "phone", interviewer_user_ids: [c.hr.userId] },
        })
        .expect(201);
      expect(
        expectDetails(
          await api(c.hr.agent).op("createInterviewSession", { body: { candidate_id: cand.id, interview_id: iv.body.data.id } }),
          400,
        ).details[0].path,
      ).toBe("body.interview_id");
      const s = await api(c.hr.agent)
        .op("createInterviewSession", {
          body: {
            candidate_id: cand.id,
            title: "Onsite day",
            scheduled_at: isoIn(2),
            mode: "in_person",
            location: "Bengaluru HQ, 4th floor",
            duration_minutes: 240,
          },
        })
        .expect(201);
      const upd = await api(c.hr.agent)
        .op("updateInterviewSession", { params: { id: s.body.data.id }, body: { instructions: "Bring a laptop", scheduled_at: isoIn(3) } })
        .expect(200);
      expect(upd.body.data.instructions).toBe("Bring a laptop");
      expectError(
        await api(c.hr.agent).op("updateInterviewSession", { params: { id: s.body.data.id }, body: { scheduled_at: isoIn(-1) } }),
        400,
        "validation_failed",
      );
      expectError(
        await api(c.hr.agent).op("updateInterviewSession", { params: { id: s.body.data.id }, body: { mode: "video" } }),
        400,
        "validation_failed",
      );
      await t.query(`UPDATE interview_sessions SET scheduled_at = $2 WHERE id = $1`, [s.body.data.id, hoursAgo(1)]);
      expectError(await api(c.hr.agent).op("sendInterviewSession", { params: { id: s.body.data.id } }), 409, "conflict");
      await api(c.hr.agent)
        .op("updateInterviewSession", { params: { id: s.body.data.id }, body: { status: "completed" } })
        .expect(200);
      expectError(
        await api(c.hr.agent).op("updateInterviewSession", { params: { id: s.body.data.id }, body: { status: "cancelled" } }),
        409,
        "conflict",
      );
      const list = await api(c.hr.agent)
        .op("listInterviewSessions", { query: { candidate_id: cand.id, status: "completed" } })
        .expect(200);
      expect(list.body.data.map((x) => x.id)).toEqual([s.body.data.id]);
      await api(c.hr.agent)
        .op("getInterviewSession", { params: { id: s.body.data.id } })
        .expect(200);
      expect(
        (
          await api(c.hr.agent)
            .op("listInterviewSessions", { query: { interview_id: iv.body.data.id } })
            .expect(200)
        ).body.data,
      ).toEqual([]);
      // Sessions only for candidates still in the pipeline.
      await api(c.hr.agent)
        .op("updateCandidate", { params: { id: cand.id }, body: { stage: "withdrawn" } })
        .expect(200);
      expectError(
        await api(c.hr.agent).op("createInterviewSession", { body: { candidate_id: cand.id, scheduled_at: isoIn(2), mode: "phone" } }),
        409,
        "conflict",
      );
      expectError(await api(c.manager.agent).op("listInterviewSessions"), 403, "forbidden");
      const admin = await addMember(t, c.owner, "admin");
      await api(admin.agent).op("listInterviewSessions").expect(200);
    });
  },
);
