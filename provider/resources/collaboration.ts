/** The released module path of `Collaboration`'s implementation (see ARCHITECTURE.md, the module-path contract). */
export { implementation } from "./collaboration/lifecycle";
