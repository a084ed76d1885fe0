// Counting leave days. Units are half days (integers), so no fractions are ever rounded.
//
// - Working days of [from, to] count 1 (0.5 for a half day on the first/last day); weekly offs
//   and holidays of the employee count 0.
// - Sandwich rule (per leave type): off days lying between two leave days count as leave —
//   inside the request, and across requests: the run of off days right before the first (after
//   the last) leave day of this request counts when the working day beyond it is a leave day of
//   another of the employee's active requests that was submitted EARLIER. The later request is
//   charged the bridge, so the same weekend is never charged twice; when the earlier request goes
//   away, the later one is recounted (and loses the bridge).
import { addDays, eachDay, type DateString } from "../../lib/dates.ts";

export type IsOff = (d: DateString) => boolean;

export interface CountInput {
  from: DateString;
  to: DateString;
  halfDayStart?: boolean;
  halfDayEnd?: boolean;
  isOff: IsOff;
  sandwich: boolean;
  /** True for working days that are leave days of the employee's earlier-submitted active requests. */
  coveredByEarlier?: (d: DateString) => boolean;
}

export interface CountResult {
  /** Half-day units charged. */
  halves: number;
  /** Working days of the range that are leave days. */
  leaveDays: DateString[];
  /** Off days charged because of the sandwich rule (inside the range or bridging to another request). */
  sandwiched: DateString[];
}

/** Longest run of off days scanned when bridging to a neighbouring request. */
const MAX_BRIDGE = 31;

export function countLeaveDays(i: CountInput): CountResult {
  const leaveDays: DateString[] = [];
  let halves = 0;
  for (const d of eachDay(i.from, i.to)) {
    if (i.isOff(d)) continue;
    const half = (d === i.from && i.halfDayStart) || (d === i.to && i.halfDayEnd);
    halves += half ? 1 : 2;
    leaveDays.push(d);
  }
  const sandwiched: DateString[] = [];
  if (i.sandwich && leaveDays.length) {
    const first = leaveDays[0];
    const last = leaveDays[leaveDays.length - 1];
    for (const d of eachDay(first, last)) if (i.isOff(d)) sandwiched.push(d);
    if (i.coveredByEarlier) {
      for (const dir of [-1, 1] as const) {
        const run: DateString[] = [];
        let d = addDays(dir < 0 ? first : last, dir);
        while (run.length < MAX_BRIDGE && i.isOff(d)) {
          run.push(d);
          d = addDays(d, dir);
        }
        if (run.length && i.coveredByEarlier(d)) sandwiched.push(...run);
      }
    }
    sandwiched.sort();
  }
  halves += sandwiched.length * 2;
  return { halves, leaveDays, sandwiched };
}

export interface RangeWithHalves {
  from: DateString;
  to: DateString;
  halves: number;
}

/** Whether b starts right after a, with only off days (or nothing) between them. */
export function adjacent(a: { to: DateString }, b: { from: DateString }, isOff: IsOff): boolean {
  if (b.from <= a.to) return false;
  for (let d = addDays(a.to, 1); d < b.from; d = addDays(d, 1)) if (!isOff(d)) return false;
  return true;
}

/** Half days of the unbroken chain of leave `self` forms with adjacent `others`: what "max consecutive days" limits. */
export function consecutiveHalves(self: RangeWithHalves, others: RangeWithHalves[], isOff: IsOff): number {
  const sorted = [...others].sort((a, b) => (a.from < b.from ? -1 : 1));
  let total = self.halves;
  let head = self;
  for (let k = sorted.length - 1; k >= 0; k--) {
    const o = sorted[k];
    if (o.to >= head.from) continue;
    if (!adjacent(o, head, isOff)) break;
    total += o.halves;
    head = o;
  }
  let tail = self;
  for (const o of sorted) {
    if (o.from <= tail.to) continue;
    if (!adjacent(tail, o, isOff)) break;
    total += o.halves;
    tail = o;
  }
  return total;
}
