/** The released module path of `Federation`'s implementation (see ARCHITECTURE.md, the module-path contract). */
export { implementation } from "./federation/lifecycle";
