/** The released module path of `Site`'s implementation (see ARCHITECTURE.md, the module-path contract). */
export { implementation } from "./site/lifecycle";
