/**
 * The audit table of docs/emulator-audit.md and the conformance corpus cannot disagree: every
 * case is in a served row whose endpoint matches the case's path, every case a row names exists
 * and matches that row, and a row that is not served (or names a client function nothing calls)
 * names no case.
 */
import fs from "node:fs";
import path from "node:path";
import { CASES } from "./index";
import type { ConformanceCase } from "./corpus";

interface AuditRow {
  endpoint: string;
  portal: boolean;
  status: string;
  cases: string[];
}

function auditRows(): AuditRow[] {
  const text = fs.readFileSync(path.join(__dirname, "../../docs/emulator-audit.md"), "utf8");
  return text
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const cells = line.split("|").map((cell) => cell.trim());
      const [, endpointCell, , , status, casesCell] = cells;
      const endpoint = /`(?:GET|POST) ([^`]+)`/.exec(endpointCell!)![1]!;
      // Names outside parentheses are case names; a parenthesis explains where none is.
      const cases = casesCell!
        .replace(/\([^)]*\)/g, "")
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== "");
      return { endpoint, portal: endpointCell!.includes("(portal)"), status: status!, cases };
    });
}

/** The row's endpoint as a pattern: `<name>` is one path segment. */
function matches(row: AuditRow, c: ConformanceCase): boolean {
  if (row.portal !== (c.request.root === "portal")) return false;
  const pattern = new RegExp(
    `^${row.endpoint
      .split(/<[^>]+>/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^/]+")}$`,
  );
  // A case's placeholders (`{joinedMachine}`) stand for one segment too.
  return pattern.test(c.request.path.replace(/\{[^}]+\}/g, "x"));
}

describe("the audit table (docs/emulator-audit.md)", () => {
  const rows = auditRows();

  it("has a row for each endpoint, each served, not served or not called", () => {
    expect(rows.length).toBeGreaterThan(30);
    for (const row of rows) expect(["served", "not served", "not called"]).toContain(row.status);
    expect(new Set(rows.map((r) => r.endpoint)).size).toBe(rows.length);
  });

  it("names only cases of the corpus, each matching its row, and none in a row not served", () => {
    const byName = new Map(CASES.map((c) => [c.name, c]));
    for (const row of rows) {
      if (row.status !== "served") expect(row.cases).toEqual([]);
      for (const name of row.cases) {
        const c = byName.get(name);
        expect({ row: row.endpoint, name, exists: c !== undefined }).toEqual({
          row: row.endpoint,
          name,
          exists: true,
        });
        expect({ row: row.endpoint, name, matches: matches(row, c!) }).toEqual({
          row: row.endpoint,
          name,
          matches: true,
        });
      }
    }
  });

  it("names at least one case in every served row", () => {
    expect(rows.filter((r) => r.status === "served" && r.cases.length === 0)).toEqual([]);
  });

  it("lists every case of the corpus in a served row", () => {
    const listed = new Set(rows.filter((r) => r.status === "served").flatMap((r) => r.cases));
    expect(CASES.map((c) => c.name).filter((name) => !listed.has(name))).toEqual([]);
  });
});
