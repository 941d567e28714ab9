/**
 * The REST client layer: undici-based calls to the ArcGIS admin and sharing APIs. It never
 * imports `@pulumi/pulumi`.
 *
 * @packageDocumentation
 */
import "../node-version";
export * from "./errors";
export * from "./products";
export * from "./response";
export * from "./retry";
export * from "./dispatcher";
export * from "./tls-versions";
export * from "./request";
export * from "./transport-error";
export * from "./readiness";
export * from "./transfer/download";
export * from "./transfer/archive-check";
export * from "./transfer/partial-files";
export * from "./auth";
export * from "./session";
export * from "./admin";
export * from "./portal";
export * from "./web-adaptor";
export * from "./transfer/object-store";
export * from "./presented-certificate";
