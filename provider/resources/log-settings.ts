/** The released module path of `LogSettings`'s implementation (see ARCHITECTURE.md, the module-path contract). */
export { implementation } from "./log-settings/lifecycle";
