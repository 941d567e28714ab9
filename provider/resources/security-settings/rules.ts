/**
 * SecuritySettings only: what the server would refuse, and what would lock the stack's own
 * connection out, proven from the settings before anything is sent. `check()` applies it to the
 * declared settings (so `pulumi preview` refuses with no request), and the write to the declared
 * ones over the server's as read just before sending.
 *
 * Evidence: which protocols a cipher suite can be negotiated with is TLS's own rule: the TLS 1.3
 * suites (RFC 8446, appendix B.4) only with TLS 1.3, and no other suite with it; the AEAD suites
 * and those with a SHA-256 or SHA-384 MAC only with TLS 1.2 (RFC 5246, 1.2; RFC 5288 and RFC 5289,
 * section 4: "MUST NOT be negotiated in older versions of the TLS protocol"). HSTS needs HTTPS
 * only: DSC's `ArcGIS_Server_TLS` ("Enable HSTS porperty requires http protocol set to only
 * HTTPS") and the ArcGIS API for Python's `SecurityManager.configuration` docstring.
 */
import { clientTlsVersions } from "../../client";
import type { CheckFailure } from "../common/inputs/definition";
import { TLS_PROTOCOLS, type ReportedSecuritySettings } from "./values";

/** The TLS 1.3 cipher suites (RFC 8446, appendix B.4). */
const TLS13_SUITES = new Set([
  "TLS_AES_128_GCM_SHA256",
  "TLS_AES_256_GCM_SHA384",
  "TLS_CHACHA20_POLY1305_SHA256",
  "TLS_AES_128_CCM_SHA256",
  "TLS_AES_128_CCM_8_SHA256",
]);

/** A suite of TLS 1.2 only: AEAD, or a SHA-256/SHA-384 MAC. */
const TLS12_ONLY = /_(GCM|CCM|CHACHA20_POLY1305)(_|$)|_SHA(256|384)$/;

/**
 * The protocols a cipher suite can be negotiated with.
 *
 * @internal
 */
export function protocolsOfSuite(suite: string): readonly string[] {
  if (TLS13_SUITES.has(suite)) return ["TLSv1.3"];
  if (TLS12_ONLY.test(suite)) return ["TLSv1.2"];
  return ["TLSv1", "TLSv1.1", "TLSv1.2"];
}

/**
 * TLS protocol names oldest first, unknown ones last.
 *
 * @internal
 */
export function oldestFirst(protocols: readonly string[]): string[] {
  const rank = (p: string) => {
    const i = (TLS_PROTOCOLS as readonly string[]).indexOf(p);
    return i < 0 ? TLS_PROTOCOLS.length : i;
  };
  return [...protocols].sort((a, b) => rank(a) - rank(b));
}

/** Entries listed more than once. */
function repeated(list: readonly string[]): string[] {
  return [...new Set(list.filter((entry, i) => list.indexOf(entry) !== i))];
}

const list = (values: readonly string[]) => `[${values.join(", ")}]`;

/**
 * What would be refused in `settings` on the server at `adminUrl`, each naming its field and what
 * to do. `declared` are the fields the stack declares (the others are the server's, as read):
 * a rule that involves only the server's fields is not the stack's to refuse, and a field the
 * stack does not declare is named as the server's.
 *
 * @internal
 */
export function securityRefusals(
  settings: ReportedSecuritySettings,
  declared: readonly string[],
  adminUrl: string | undefined,
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const ours = (field: string) => declared.includes(field);
  const named = (field: string) => (ours(field) ? field : `the server's ${field}`);
  const { httpsOnly, hstsEnabled, tlsProtocols, cipherSuites } = settings;

  for (const field of ["tlsProtocols", "cipherSuites"] as const) {
    const values = settings[field];
    if (!ours(field) || values === undefined) continue;
    const twice = repeated(values);
    if (twice.length > 0) {
      failures.push({
        property: field,
        reason: `lists ${list(twice)} more than once: list each once`,
      });
    }
  }
  if (ours("tlsProtocols") && tlsProtocols !== undefined) {
    const sorted = oldestFirst(tlsProtocols);
    if (sorted.some((p, i) => p !== tlsProtocols[i])) {
      failures.push({
        property: "tlsProtocols",
        reason: `list the protocols oldest first: ${list([...new Set(sorted)])}`,
      });
    }
  }
  if (hstsEnabled === true && httpsOnly === false && (ours("hstsEnabled") || ours("httpsOnly"))) {
    failures.push({
      property: ours("hstsEnabled") ? "hstsEnabled" : "httpsOnly",
      reason:
        `HSTS needs HTTPS only, and ${named("httpsOnly")} is false: set httpsOnly to true, or ` +
        "hstsEnabled to false",
    });
  }
  if (
    tlsProtocols !== undefined &&
    cipherSuites !== undefined &&
    (ours("tlsProtocols") || ours("cipherSuites"))
  ) {
    for (const protocol of tlsProtocols) {
      if (cipherSuites.some((suite) => protocolsOfSuite(suite).includes(protocol))) continue;
      const property = ours("tlsProtocols") ? "tlsProtocols" : "cipherSuites";
      failures.push({
        property,
        reason:
          `${protocol} would have no cipher suite left: none of ${named("cipherSuites")} ` +
          `${list(cipherSuites)} can be negotiated with it. ${suitesFor(protocol)}, or remove ` +
          `${protocol} from tlsProtocols`,
      });
    }
  }
  if (adminUrl === undefined) return failures;
  const plain = adminUrl.toLowerCase().startsWith("http://");
  if (plain && httpsOnly === true && ours("httpsOnly")) {
    failures.push({
      property: "httpsOnly",
      reason:
        `adminUrl ${adminUrl} is http://, and with HTTPS only the server would refuse this ` +
        "stack's own connection: point adminUrl at the server's https:// address first, then " +
        "set httpsOnly",
    });
  }
  const speaks = clientTlsVersions();
  if (!plain && tlsProtocols !== undefined && ours("tlsProtocols")) {
    if (!tlsProtocols.some((p) => speaks.includes(p))) {
      failures.push({
        property: "tlsProtocols",
        reason:
          `${list(tlsProtocols)} leaves no protocol this provider speaks (${speaks.join(", ")}, ` +
          `Node.js's defaults), so this stack could no longer reach ${adminUrl}: add ` +
          `${speaks.join(" or ")}`,
      });
    }
  }
  return failures;
}

/** What to add so that `protocol` keeps a cipher suite. */
function suitesFor(protocol: string): string {
  if (protocol === "TLSv1.3") return `Add one of ${[...TLS13_SUITES].join(", ")}`;
  if (protocol === "TLSv1.2") {
    return "Add a TLS 1.2 suite, e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256";
  }
  return "Add a suite older protocols can use, e.g. TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA";
}
