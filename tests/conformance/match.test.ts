import type { Expected } from "./corpus";
import { matchesExpected } from "./match";

describe("matchesExpected()", () => {
  it("accepts an answer with the expected fields and more", () => {
    expect(
      matchesExpected(
        { status: "success", location: "/x/y.agssite", extra: [1, 2] },
        { status: "success" },
      ),
    ).toEqual([]);
  });

  it("matches nested objects partially at every level", () => {
    expect(
      matchesExpected(
        { error: { code: 499, message: "Token Required" } },
        { error: { code: 499 } },
      ),
    ).toEqual([]);
  });

  it("names the path of a wrong value", () => {
    expect(matchesExpected({ error: { code: 500 } }, { error: { code: 499 } })).toEqual([
      "body.error.code: expected 499, got 500",
    ]);
  });

  it("reports a missing field, even when the expected value is null", () => {
    expect(matchesExpected({}, { status: "success" })).toEqual([
      'body.status: missing (expected "success")',
    ]);
    expect(matchesExpected({}, { description: null })).toEqual([
      "body.description: missing (expected null)",
    ]);
  });

  it("does not take a string for a number or a boolean", () => {
    expect(matchesExpected({ code: "499" }, { code: 499 })).toHaveLength(1);
    expect(matchesExpected({ success: "true" }, { success: true })).toHaveLength(1);
  });

  it("does not take an array or null for an object", () => {
    expect(matchesExpected({ error: [] }, { error: { code: 1 } })).toEqual([
      "body.error: expected an object, got []",
    ]);
    expect(matchesExpected(null, { status: "success" })).toEqual([
      "body: expected an object, got null",
    ]);
  });

  it("compares arrays element by element, with their length", () => {
    expect(matchesExpected({ a: [1, { b: 2, c: 3 }] }, { a: [1, { b: 2 }] })).toEqual([]);
    expect(matchesExpected({ a: [1, 2, 3] }, { a: [1, 2] })).toEqual([
      "body.a: expected 2 elements, got 3",
    ]);
    expect(matchesExpected({ a: [2, 1] }, { a: [1, 2] })).toHaveLength(2);
    expect(matchesExpected({ a: "x" }, { a: [] })).toEqual(['body.a: expected an array, got "x"']);
  });

  it("lists every mismatch, not the first", () => {
    expect(matchesExpected({ a: 1, b: 2 }, { a: 2, b: 3, c: 4 })).toHaveLength(3);
  });

  describe("$anyOf", () => {
    const expected: Expected = { success: { $anyOf: [true, "true"] } };
    it("accepts any listed value, compared exactly", () => {
      expect(matchesExpected({ success: true }, expected)).toEqual([]);
      expect(matchesExpected({ success: "true" }, expected)).toEqual([]);
      expect(matchesExpected({ success: false }, expected)).toEqual([
        'body.success: expected any of [true,"true"], got false',
      ]);
      expect(matchesExpected({ o: { a: 1, b: 2 } }, { o: { $anyOf: [{ a: 1 }] } })).toHaveLength(1);
    });
    it("needs the field", () => {
      expect(matchesExpected({}, expected)).toHaveLength(1);
    });
  });

  describe("$type", () => {
    it("checks the JSON type", () => {
      expect(matchesExpected({ t: "abc" }, { t: { $type: "string" } })).toEqual([]);
      expect(matchesExpected({ t: 11.3 }, { t: { $type: "number" } })).toEqual([]);
      expect(matchesExpected({ t: false }, { t: { $type: "boolean" } })).toEqual([]);
      expect(matchesExpected({ t: [] }, { t: { $type: "array" } })).toEqual([]);
      expect(matchesExpected({ t: "11.3" }, { t: { $type: "number" } })).toEqual([
        'body.t: expected a number, got "11.3"',
      ]);
      expect(matchesExpected({ t: {} }, { t: { $type: "array" } })).toHaveLength(1);
      expect(matchesExpected({ t: null }, { t: { $type: "string" } })).toHaveLength(1);
    });
    it("needs the field", () => {
      expect(matchesExpected({}, { t: { $type: "string" } })).toEqual([
        'body.t: missing (expected {"$type":"string"})',
      ]);
    });
  });

  describe("$not", () => {
    it("refuses only the given value", () => {
      expect(matchesExpected({ error: { code: 500 } }, { error: { code: { $not: 499 } } })).toEqual(
        [],
      );
      expect(matchesExpected({ error: { code: 499 } }, { error: { code: { $not: 499 } } })).toEqual(
        ["body.error.code: expected anything but 499, got it"],
      );
    });
    it("needs the field", () => {
      expect(matchesExpected({ error: {} }, { error: { code: { $not: 499 } } })).toHaveLength(1);
      expect(matchesExpected({}, { error: { code: { $not: 499 } } })).toEqual([
        'body.error: missing (expected {"code":{"$not":499}})',
      ]);
    });
  });

  it("refuses malformed matchers instead of ignoring them", () => {
    const bad = [
      { $anyof: [1] },
      { $type: "object" },
      { $anyOf: [] },
      { $anyOf: 1 },
      { $not: 1, other: 2 },
    ] as unknown as Expected[];
    for (const expected of bad) {
      expect(matchesExpected({ v: 1 }, { v: expected })[0]).toMatch(/^body\.v: malformed matcher/);
    }
  });
});
