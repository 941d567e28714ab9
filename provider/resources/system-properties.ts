/** The released module path of `SystemProperties`'s implementation (see ARCHITECTURE.md, the module-path contract). */
export { implementation } from "./system-properties/lifecycle";
