/** The released module path of `SiteMachine`'s implementation (see ARCHITECTURE.md, the module-path contract). */
export { implementation } from "./site-machine/lifecycle";
