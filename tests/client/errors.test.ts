import {
  ArcGISRequestError,
  hasServerCode,
  isArcGISRequestError,
  isAuthError,
  isNotFoundError,
  isTlsError,
  isTokenRejectedError,
  isTransientError,
  redactSecrets,
} from "../../provider/client";
import { ADMIN_PASSWORD, ADMIN_TOKEN, ADMIN_URL } from "../../tools/harness/server-answers";

function error(
  init: Partial<ConstructorParameters<typeof ArcGISRequestError>[0]>,
): ArcGISRequestError {
  return new ArcGISRequestError({
    code: "SERVER",
    operation: "createNewSite",
    url: `${ADMIN_URL}/createNewSite`,
    detail: "The specified configuration store location is not accessible.",
    ...init,
  });
}

describe("ArcGISRequestError", () => {
  it("says what failed, where, with the server's code and message", () => {
    const e = error({ serverCode: 500 });
    expect(e.message).toBe(
      "createNewSite on https://gis.example.com:20443/arcgis/admin failed (code 500): The specified configuration store location is not accessible.",
    );
    expect(e.name).toBe("ArcGISRequestError");
    expect(e.code).toBe("SERVER");
    expect(e.serverCode).toBe(500);
    expect(e).toBeInstanceOf(Error);
  });

  it("keeps the URL without its query string, fragment or credentials", () => {
    const e = error({ url: `https://user:pw@gis.example.com/arcgis/admin/?f=json&token=abc#x` });
    expect(e.url).toBe("https://gis.example.com/arcgis/admin");
    expect(e.message).not.toContain("abc");
    expect(e.message).not.toContain("pw@");
  });

  it("keeps the server's code whole when it equals a secret", () => {
    const e = error({ serverCode: 500, detail: "Failed.", secrets: ["500"] });
    expect(e.message).toContain("failed (code 500): Failed.");
  });

  it("keeps the original failure as cause", () => {
    const cause = new Error("connect ECONNREFUSED");
    expect(error({ code: "NETWORK", cause }).cause).toBe(cause);
  });

  it("redacts secrets from the message and from the server's messages", () => {
    const e = error({
      detail: `echo ${ADMIN_PASSWORD} ${ADMIN_TOKEN}`,
      messages: [`password was ${ADMIN_PASSWORD}`],
      secrets: [ADMIN_PASSWORD, ADMIN_TOKEN],
    });
    expect(e.message).not.toContain(ADMIN_PASSWORD);
    expect(e.message).not.toContain(ADMIN_TOKEN);
    expect(e.messages.join()).not.toContain(ADMIN_PASSWORD);
    expect(e.message).toContain("[REDACTED]");
  });
});

describe("redactSecrets()", () => {
  it("replaces raw, URL-encoded and JSON-escaped forms of each secret", () => {
    const secret = 'p@ss "word"&=/';
    const text = [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ x: secret }).toString().slice(2),
      JSON.stringify(secret),
    ].join(" | ");
    const out = redactSecrets(text, [secret]);
    expect(out).not.toContain("word");
  });

  it("redacts token= and password= values even for unknown secrets", () => {
    expect(redactSecrets("a=1&token=xyz.123&password=hunter2&b=2", [])).toBe(
      "a=1&token=[REDACTED]&password=[REDACTED]&b=2",
    );
  });

  it('redacts "token": and "password": JSON members and Bearer headers', () => {
    const out = redactSecrets('{"token":"abc","Password" : "x\\"y"} Bearer eyJ.abc', []);
    expect(out).toBe('{"token":"[REDACTED]","Password" : "[REDACTED]"} Bearer [REDACTED]');
  });

  it("leaves a secret alone where it is only part of other text (a path, an address, a port)", () => {
    const text =
      "siteStatus on https://127.0.0.1:20443/arcgis/admin failed: see /arcgis/admin/logs.";
    expect(redactSecrets(text, ["admin", "7", "1", "20443", "arcgis"])).toBe(text);
  });

  it("redacts a short secret where it is a value: form value, JSON string, quoted or whole word, header", () => {
    const text = [
      "username=siteadmin&pwd=7&f=json",
      '{"pwd":"7","note":"7 apples"}',
      "password 7 is wrong: '7'.",
      "X-Secret: 7",
    ].join("\n");
    expect(redactSecrets(text, ["7"])).toBe(
      [
        "username=siteadmin&pwd=[REDACTED]&f=json",
        '{"pwd":"[REDACTED]","note":"[REDACTED] apples"}',
        "password [REDACTED] is wrong: '[REDACTED]'.",
        "X-Secret: [REDACTED]",
      ].join("\n"),
    );
  });

  it("ignores empty secrets instead of mangling the text", () => {
    expect(redactSecrets("nothing to hide", ["", ""])).toBe("nothing to hide");
  });
});

describe("error guards", () => {
  it("recognise an error made by a second copy of the module (another module registry)", () => {
    let copy: typeof import("../../provider/client/errors") | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the module, as a second install would load
      copy = require("../../provider/client/errors") as typeof copy;
    });
    const Copied = copy!.ArcGISRequestError;
    expect(Copied).not.toBe(ArcGISRequestError);
    const theirs = new Copied({
      code: "AUTH",
      operation: "exportSite",
      url: `${ADMIN_URL}/exportSite`,
      detail: "Invalid token.",
      serverCode: 498,
    });
    expect(isArcGISRequestError(theirs)).toBe(true);
    expect(isAuthError(theirs)).toBe(true);
    expect(isTokenRejectedError(theirs)).toBe(true);
    expect(theirs instanceof ArcGISRequestError).toBe(true);
    // And the other way round: the copy's guards and class recognise this copy's errors.
    const ours = error({ code: "TLS" });
    expect(copy!.isTlsError(ours)).toBe(true);
    expect(ours instanceof Copied).toBe(true);
  });

  it("do not take another library's error of the same name for ours (arcgis-rest-js's ArcGISRequestError)", () => {
    // The shape of @esri/arcgis-rest-request's ArcGISRequestError: same name, a numeric or
    // string code, originalMessage, response, url, options; no brand and no `messages`.
    const restJs = Object.assign(new Error("498: Invalid token."), {
      name: "ArcGISRequestError",
      code: 498,
      originalMessage: "Invalid token.",
      response: { error: { code: 498, message: "Invalid token." } },
      url: `${ADMIN_URL}/exportSite`,
      options: { httpMethod: "POST", params: {} },
    });
    // Even with our field names and values, an unbranded object is not ours.
    const lookalike = {
      name: "ArcGISRequestError",
      code: "AUTH",
      serverCode: 404,
      httpStatus: 502,
    };
    for (const foreign of [restJs, lookalike]) {
      expect(isArcGISRequestError(foreign)).toBe(false);
      expect(isAuthError(foreign)).toBe(false);
      expect(isTransientError(foreign)).toBe(false);
      expect(isTlsError(foreign)).toBe(false);
      expect(isNotFoundError(foreign)).toBe(false);
      expect(isTokenRejectedError(foreign)).toBe(false);
      expect(hasServerCode(foreign, 404)).toBe(false);
      expect(hasServerCode(foreign, 498)).toBe(false);
      expect(foreign instanceof ArcGISRequestError).toBe(false);
    }
    expect(isArcGISRequestError(new Error("x"))).toBe(false);
    expect(isArcGISRequestError({ name: "ArcGISRequestError" })).toBe(false);
    expect(isArcGISRequestError(null)).toBe(false);
    expect(isArcGISRequestError("ArcGISRequestError")).toBe(false);
  });

  it("keep the brand out of what is printed or copied", () => {
    const e = error({ code: "SERVER" });
    expect(Object.getOwnPropertySymbols(e)).toEqual([]);
    expect(isArcGISRequestError({ ...e })).toBe(false);
  });

  it("treat NETWORK, TIMEOUT and HTTP 502/503/504 as transient, nothing else", () => {
    expect(isTransientError(error({ code: "NETWORK" }))).toBe(true);
    expect(isTransientError(error({ code: "TIMEOUT" }))).toBe(true);
    for (const status of [502, 503, 504]) {
      expect(isTransientError(error({ code: "HTTP", httpStatus: status }))).toBe(true);
    }
    expect(isTransientError(error({ code: "HTTP", httpStatus: 500 }))).toBe(false);
    expect(isTransientError(error({ code: "SERVER", httpStatus: 502 }))).toBe(false);
    expect(isTransientError(error({ code: "TLS" }))).toBe(false);
  });

  it("recognise TLS errors and server codes", () => {
    expect(isTlsError(error({ code: "TLS" }))).toBe(true);
    expect(isTlsError(error({ code: "NETWORK" }))).toBe(false);
    expect(hasServerCode(error({ serverCode: 409 }), 409)).toBe(true);
    expect(hasServerCode(error({ serverCode: 500 }), 409)).toBe(false);
  });

  it("recognise a missing item: code 404, or 400 saying it does not exist or was not found", () => {
    expect(isNotFoundError(error({ serverCode: 404 }))).toBe(true);
    expect(
      isNotFoundError(
        error({ serverCode: 400, messages: ["Collaboration with id 'x' does not exist."] }),
      ),
    ).toBe(true);
    expect(isNotFoundError(error({ serverCode: 400, messages: ["Item not found."] }))).toBe(true);
    expect(
      isNotFoundError(error({ serverCode: 400, messages: ["Invalid parameter."], detail: "x" })),
    ).toBe(false);
    expect(isNotFoundError(error({ code: "HTTP", httpStatus: 404 }))).toBe(false);
  });

  it("leave a non-matching ArcGISRequestError typed as one in the false branch", () => {
    const e: unknown = error({ code: "SERVER" });
    expect(isArcGISRequestError(e)).toBe(true);
    expect(isAuthError(e)).toBe(false);
    if (!isArcGISRequestError(e) || isAuthError(e)) throw new Error("guards disagree with expect");
    // Compiles only because the guard narrows to an intersection, not to the class.
    expect(e.code).toBe("SERVER");
  });
});
