/** The released module path of `SiteExport`'s implementation (see ARCHITECTURE.md, the module-path contract). */
export { implementation } from "./site-export/lifecycle";
