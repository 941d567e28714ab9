/** The released module path of `ServerCertificate`'s implementation (see ARCHITECTURE.md, the module-path contract). */
export { implementation } from "./server-certificate/lifecycle";
