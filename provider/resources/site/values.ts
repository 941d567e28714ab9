/**
 * The value types Site's generated types name: the directories and the config store as the
 * server reports them. A leaf module (it imports nothing), so that the generated types, the
 * class and the report share them without an import circle.
 */

/** A server directory as the server reports it (`system/directories`). */
export interface SiteReportedDirectory {
  /** The directory's name. */
  name: string;
  /** Its path as the server reports it (`physicalPath`, or `path` on Mission/Notebook/Video). */
  path: string;
}

/** The configuration store as the server reports it (`system/configstore`); never a secret. */
export interface SiteReportedConfigStore {
  /** Its type, e.g. `FILESYSTEM`, when reported. */
  type?: string;
  /** Its location, when reported. */
  connectionString?: string;
}

/** Directory types of every product; each product takes a subset (see serverProduct()). */
export const DIRECTORY_TYPES = [
  "JOBS",
  "OUTPUT",
  "CACHE",
  "SYSTEM",
  "WORKSPACE",
  "UPLOADS",
  "DATA",
] as const;
/** One of {@link DIRECTORY_TYPES}. */
export type SiteDirectoryType = (typeof DIRECTORY_TYPES)[number];
