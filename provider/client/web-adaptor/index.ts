/** Operations on Web Adaptors: their own configuration page, and a server's or portal's list of them, one per file. */
export * from "./configureWebAdaptor";
export * from "./listWebAdaptors";
export * from "./unregisterWebAdaptor";
export type { WebAdaptorRegistrar } from "./registrar";
