/** The released module path of `SiteUpgrade`'s implementation (see ARCHITECTURE.md, the module-path contract). */
export { implementation } from "./site-upgrade/lifecycle";
