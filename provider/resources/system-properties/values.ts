/**
 * The value types SystemProperties' generated types name: the declared properties, and the
 * properties as the server reports them. A leaf module (it imports nothing), so that the
 * generated types, the class and the inputs share them without an import circle.
 */

/** The properties a SystemProperties keeps: names as the server keeps them, scalar values. */
export type ManagedSystemProperties = Record<string, string | number | boolean>;

/** Properties as the server reports them (any JSON value: the server keeps what it was sent). */
export type ReportedSystemProperties = Record<string, unknown>;
