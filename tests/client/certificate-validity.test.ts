/**
 * A server certificate that is not valid now, named as such by the client for every caller: an
 * expired one (CERT_HAS_EXPIRED) and one not valid yet (CERT_NOT_YET_VALID), each issued by a CA
 * the caller trusts, so that only the dates are wrong. A request ends at once with its own reason
 * (`tls-expired`, `tls-not-yet-valid`), and a handshake of presentedCertificate says the same; never
 * "not trusted" or "not issued by a CA of trust.trustOnly", which would send the user to tls.caCert.
 */
import {
  closeDispatchers,
  isArcGISRequestError,
  permanentReason,
  presentedCertificate,
  waitForServer,
} from "../../provider/client";
import type { TestEmulator } from "../../tools/harness/emulator";
import { startEmulatorPresenting } from "../../tools/harness/presenting-emulator";
import { issueServerCertificate, makeRootCa } from "../../tools/harness/pki";

const DAY = 24 * 3600 * 1000;
const root = makeRootCa();
const cases = [
  {
    name: "an expired certificate",
    validity: { notBefore: new Date(Date.now() - 30 * DAY), notAfter: new Date(Date.now() - DAY) },
    reason: "tls-expired",
    said: /has expired \(CERT_HAS_EXPIRED: certificate has expired\)/,
  },
  {
    name: "a certificate not valid yet",
    validity: { notBefore: new Date(Date.now() + DAY), notAfter: new Date(Date.now() + 30 * DAY) },
    reason: "tls-not-yet-valid",
    said: /is not valid yet \(CERT_NOT_YET_VALID: certificate is not yet valid\)/,
  },
] as const;

const emulators = new Map<string, TestEmulator>();
beforeAll(async () => {
  for (const c of cases) {
    const issued = issueServerCertificate(root, ["127.0.0.1"], "127.0.0.1", c.validity);
    emulators.set(c.name, await startEmulatorPresenting(issued));
  }
});
afterAll(async () => {
  for (const emu of emulators.values()) await emu.close();
  await closeDispatchers();
});

describe.each(cases)("$name", ({ name, reason, said }) => {
  it("a request ends at once with its own reason, saying what is wrong and not 'not trusted'", async () => {
    const emu = emulators.get(name)!;
    const started = Date.now();
    const error = await waitForServer(
      emu.adminUrl,
      { tls: { caCert: root.certPem } },
      { deadline: started + 20_000, pollIntervalMs: 100 },
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!isArcGISRequestError(error)) throw new Error(`not a client error: ${String(error)}`);
    expect(error.code).toBe("TLS");
    expect(permanentReason(error)).toBe(reason);
    expect(error.message).toMatch(said);
    expect(error.message).not.toMatch(/not trusted|Pass the PEM certificate of the CA/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("presentedCertificate says the same, not 'not issued by a CA of trust.trustOnly'", async () => {
    const emu = emulators.get(name)!;
    const error = await presentedCertificate({
      host: "127.0.0.1",
      port: Number(new URL(emu.adminUrl).port),
      trust: { trustOnly: root.certPem },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!isArcGISRequestError(error)) throw new Error(`not a client error: ${String(error)}`);
    expect(permanentReason(error)).toBe(reason);
    expect(error.message).toMatch(
      new RegExp(`the certificate presented, or one of its chain, ${said.source}`),
    );
    expect(error.message).not.toMatch(/not issued by/);
  });
});
