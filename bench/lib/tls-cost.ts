/**
 * What a TLS client pays, in CPU, to build the secure context of one connection: with
 * `ca: [...tls.rootCertificates, caCert]` (what provider/client/dispatcher.ts passes when
 * tls.caCert is set, and Node builds a new context for every connection unless it is given
 * one), against `ca: [caCert]` alone.
 */
import { performance } from "node:perf_hooks";
import * as tls from "node:tls";
import { median } from "./stats";

/** Median CPU-bound time to build one secure context, ms. */
export interface SecureContextCost {
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
  const time = (ca: string[]): number => {
    const runs: number[] = [];
    for (let i = 0; i < samples; i++) {
      const t0 = performance.now();
      tls.createSecureContext({ ca });
      runs.push(performance.now() - t0);
    }
    return median(runs);
  };
  return {
    withSystemRootsMs: time([...tls.rootCertificates, caCert]),
    caOnlyMs: time([caCert]),
    systemRoots: tls.rootCertificates.length,
  };
}
