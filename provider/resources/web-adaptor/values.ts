/**
 * The value types a `WebAdaptor`'s generated types name: a leaf module, so that nothing imports
 * in a circle.
 */

/** What a Web Adaptor fronts, as Esri's configure tool's `-m` names it. */
export const WEB_ADAPTOR_MODES = ["server", "portal"] as const;

/** What a Web Adaptor fronts: `server` or `portal`. */
export type WebAdaptorMode = (typeof WEB_ADAPTOR_MODES)[number];
