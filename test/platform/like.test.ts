// String filters of the scoped client match their text literally: Prisma turns contains /
// startsWith / endsWith (and insensitive equals) into LIKE without escaping % and _ (src/db/like.ts).
import { describe, expect, it } from "vitest";
import { escapeLike, literalPatterns } from "../../src/db/like.ts";
import { db, withTenant } from "../../src/db/tenancy.ts";
import { signupTenant, useTestApp } from "../support/app.ts";

const t = useTestApp();

describe("literal string filters", () => {
  it("escapes LIKE's wildcards and escape character in every string filter, and nothing else", () => {
    expect(escapeLike(String.raw`50%_a\b`)).toBe(String.raw`50\%\_a\\b`);
    const when = new Date(0);
    const args = {
      where: {
        OR: [
          { title: { contains: "a_b", mode: "insensitive" } },
          { code: { equals: "X_1" } },
          { email: { equals: "a%b", mode: "insensitive" } },
        ],
        NOT: { name: { startsWith: "100%" } },
        employee: { is: { last_name: { endsWith: "_" } } },
        created_at: { gte: when },
      },
      data: { title: "a_b stays as written" },
    };
    expect(literalPatterns(args)).toEqual({
      where: {
        OR: [
          { title: { contains: "a\\_b", mode: "insensitive" } },
          { code: { equals: "X_1" } },
          { email: { equals: "a\\%b", mode: "insensitive" } },
        ],
        NOT: { name: { startsWith: "100\\%" } },
        employee: { is: { last_name: { endsWith: "\\_" } } },
        created_at: { gte: when },
      },
      data: { title: "a_b stays as written" },
    });
    expect(args.where.OR[0]).toEqual({ title: { contains: "a_b", mode: "insensitive" } }); // the caller's object is not changed
    const plain = { where: { id: "x" } };
    expect(literalPatterns(plain)).toBe(plain);
  });

  it("makes the scoped client's contains, startsWith and insensitive equals literal", async () => {
    const a = await signupTenant(t);
    await withTenant(a.tenantId, async () => {
      for (const title of ["100% done", "100 done", "a_b", "axb"])
        await db.notification.create({ data: { user_id: a.userId, kind: "test", title } });
      const titles = async (where: object) => (await db.notification.findMany({ where, orderBy: { title: "asc" } })).map((n) => n.title);
      expect(await titles({ title: { contains: "%" } })).toEqual(["100% done"]);
      expect(await titles({ title: { contains: "a_b" } })).toEqual(["a_b"]);
      expect(await titles({ title: { startsWith: "100%" } })).toEqual(["100% done"]);
      expect(await titles({ title: { equals: "A_B", mode: "insensitive" } })).toEqual(["a_b"]);
      expect(await titles({ title: { contains: "X", mode: "insensitive" } })).toEqual(["axb"]);
    });
  });
});
