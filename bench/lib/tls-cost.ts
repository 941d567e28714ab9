/**
 * What a TLS client pays, in CPU, to build the secure context of one connection when tls.caCert
 * is set: as provider/client/dispatcher.ts builds it (Node's default context, the CA added to its
 * copy of the default store), against `ca: [...tls.rootCertificates, caCert]` (every root's PEM
 * parsed again, as an earlier version did; Node builds a new context for every connection unless
 * it is given one) and `ca: [caCert]` alone.
 */
import { performance } from "node:perf_hooks";
import * as tls from "node:tls";
import { median } from "./stats";

/** Median CPU-bound time to build one secure context, ms. */
export interface SecureContextCost {
  /** Node's default context plus the CA (provider/client/dispatcher.ts). */
  addedToDefaultMs: number;
  withSystemRootsMs: number;
  caOnlyMs: number;
  systemRoots: number;
}

/**
 * Builds `samples` contexts of each kind and returns the medians.
 *
 * @param caCert - a PEM certificate standing for the user's tls.caCert (default: the first
 *   system root, which costs the same to add).
 */
export function secureContextCost(
  caCert: string = tls.rootCertificates[0]!,
  samples = 15,
): SecureContextCost {
  const timed = (build: () => unknown): number => {
    const runs: number[] = [];
    for (let i = 0; i < samples; i++) {
      const t0 = performance.now();
      build();
      runs.push(performance.now() - t0);
    }
    return median(runs);
  };
  const time = (ca: string[]): number => timed(() => tls.createSecureContext({ ca }));
  return {
    addedToDefaultMs: timed(() => {
      const context = tls.createSecureContext();
      context.context.addCACert(caCert);
    }),
    withSystemRootsMs: time([...tls.rootCertificates, caCert]),
    caOnlyMs: time([caCert]),
    systemRoots: tls.rootCertificates.length,
  };
}
