/** The released module path of `SiteImport`'s implementation (see ARCHITECTURE.md, the module-path contract). */
export { implementation } from "./site-import/lifecycle";
