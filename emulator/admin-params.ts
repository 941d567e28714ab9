/**
 * Parameter parsing of createNewSite and logs/settings/edit: strict JSON, errors that
 * name the field, and the defaults a real server applies when a parameter is left out.
 */
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { AdminError } from "./http";
import {
  CLEANUP_MODES,
  CONFIG_STORE_TYPES,
  DIRECTORY_TYPES,
  LOG_LEVELS,
  type ConfigStoreRecord,
  type DirectoryRecord,
  type LogSettings,
} from "./state";

/** Where the emulated installation keeps its files (recorded, never created). */
const INSTALL_ROOT = "/arcgis/missionserver/usr";

/** Log settings of a site created without `settings`. */
export const DEFAULT_LOG_SETTINGS: LogSettings = {
  logLevel: "WARNING",
  logDir: `${INSTALL_ROOT}/logs`,
  maxErrorReportsCount: 10,
  maxLogFileAge: 90,
};

/** The config store of a site created without `configStoreConnection`: the install dir. */
const DEFAULT_CONFIG_STORE: ConfigStoreRecord = {
  type: "FILESYSTEM",
  connectionString: `${INSTALL_ROOT}/config-store`,
  localRepositoryPath: `${INSTALL_ROOT}/local`,
};

/** Server directories of a site created without `directories`: created locally. */
const DEFAULT_DIRECTORIES: DirectoryRecord[] = (
  [
    ["arcgisjobs", "JOBS"],
    ["arcgisoutput", "OUTPUT"],
    ["arcgissystem", "SYSTEM"],
  ] as const
).map(([name, directoryType]) => ({
  name,
  physicalPath: `${INSTALL_ROOT}/directories/${name}`,
  directoryType,
  cleanupMode: directoryType === "OUTPUT" ? "TIME_ELAPSED_SINCE_LAST_MODIFIED" : "NONE",
  maxFileAge: directoryType === "OUTPUT" ? 10 : 0,
  description: "",
}));

// Objects are loose (unknown members ignored, as a real server does with what it does not
// know), but every member the emulator uses is checked, and enums are exact.
const ConfigStoreParam = z.object({
  type: z.enum(CONFIG_STORE_TYPES),
  connectionString: z.string().min(1),
  localRepositoryPath: z.string().min(1).optional(),
  // Cloud stores send a secret; accepted, never stored.
  connectionSecret: z.string().optional(),
});

const DirectoriesParam = z.object({
  directories: z
    .array(
      z.object({
        name: z.string().min(1),
        // Any non-empty string: paths are recorded, not created, so C:\ and \\server paths are fine.
        physicalPath: z.string().min(1),
        directoryType: z.enum(DIRECTORY_TYPES),
        cleanupMode: z.enum(CLEANUP_MODES).default("NONE"),
        maxFileAge: z.number().int().min(0).default(0),
        description: z.string().default(""),
      }),
    )
    .superRefine((dirs, ctx) => {
      const seen = new Set<string>();
      dirs.forEach((dir, i) => {
        if (seen.has(dir.name.toLowerCase())) {
          ctx.addIssue({ code: "custom", path: [i, "name"], message: "duplicate directory name" });
        }
        seen.add(dir.name.toLowerCase());
      });
    }),
});

const LogSettingsParam = z.object({
  logLevel: z.enum(LOG_LEVELS).optional(),
  logDir: z.string().min(1).optional(),
  maxErrorReportsCount: z.number().int().min(0).optional(),
  maxLogFileAge: z.number().int().min(0).optional(),
});

/** A validated createNewSite request. */
export interface CreateSiteInput {
  readonly username: string;
  readonly password: string;
  readonly configStore: ConfigStoreRecord;
  readonly directories: DirectoryRecord[];
  readonly logSettings: LogSettings;
  readonly runAsync: boolean;
}

function present(params: ReadonlyMap<string, string>, name: string): string | undefined {
  const value = params.get(name);
  return value === undefined || value.trim() === "" ? undefined : value;
}

/**
 * Parses a JSON-object parameter. Malformed JSON answers code 500 with the JSON parser's
 * own message, as a real server does.
 */
function jsonObject(name: string, text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AdminError(500, [
      `Unable to parse the parameter '${name}': ${(error as Error).message}`,
    ]);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AdminError(500, [
      `A JSONObject text must begin with '{' at character 1 of the parameter '${name}'.`,
    ]);
  }
  return value;
}

function validated<T>(schema: z.ZodType<T>, name: string, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new AdminError(
    400,
    result.error.issues.map((issue) => {
      const field = [
        name,
        ...issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)),
      ].join("");
      return `Invalid value for '${field}': ${issue.message}`;
    }),
  );
}

/**
 * Reads the log settings of createNewSite from `settings` or `logsSettings` (docs and
 * tools disagree on the name; both are accepted). Both with different values is an error.
 */
function logSettingsParam(params: ReadonlyMap<string, string>): LogSettings {
  const candidates = (["settings", "logsSettings"] as const).flatMap((name) => {
    const text = present(params, name);
    return text === undefined
      ? []
      : [{ name, value: validated(LogSettingsParam, name, jsonObject(name, text)) }];
  });
  const [first, second] = candidates;
  if (
    first !== undefined &&
    second !== undefined &&
    !isDeepStrictEqual(first.value, second.value)
  ) {
    throw new AdminError(400, [
      "The parameters 'settings' and 'logsSettings' were both sent, with different values. Send the log settings once, as 'settings'.",
    ]);
  }
  return withoutUndefined(DEFAULT_LOG_SETTINGS, first?.value ?? {});
}

function withoutUndefined<T extends object>(
  base: T,
  overrides: { [K in keyof T]?: T[K] | undefined },
): T {
  const result = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined) (result as Record<string, unknown>)[key] = value;
  }
  return result;
}

/** Reads a boolean parameter the way real servers do: true/false in any letter case. */
export function booleanParam(params: ReadonlyMap<string, string>, name: string): boolean {
  const text = present(params, name)?.trim();
  if (text === undefined) return false;
  if (/^true$/i.test(text)) return true;
  if (/^false$/i.test(text)) return false;
  throw new AdminError(400, [`Invalid value for parameter '${name}': use true or false.`]);
}

/** Validates every createNewSite parameter; throws an {@link AdminError} naming the field. */
export function parseCreateNewSite(params: ReadonlyMap<string, string>): CreateSiteInput {
  const username = present(params, "username");
  const password = present(params, "password");
  const missing = [
    ...(username === undefined ? ["username"] : []),
    ...(password === undefined ? ["password"] : []),
  ];
  if (username === undefined || password === undefined) {
    throw new AdminError(
      400,
      missing.map((name) => `The parameter '${name}' is required to create a site.`),
    );
  }
  const storeText = present(params, "configStoreConnection");
  const dirsText = present(params, "directories");
  let configStore = DEFAULT_CONFIG_STORE;
  if (storeText !== undefined) {
    const store = validated(
      ConfigStoreParam,
      "configStoreConnection",
      jsonObject("configStoreConnection", storeText),
    );
    configStore = {
      type: store.type,
      connectionString: store.connectionString,
      localRepositoryPath: store.localRepositoryPath ?? null,
    };
  }
  const directories =
    dirsText === undefined
      ? DEFAULT_DIRECTORIES
      : validated(DirectoriesParam, "directories", jsonObject("directories", dirsText)).directories;
  return {
    username,
    password,
    configStore,
    directories,
    logSettings: logSettingsParam(params),
    runAsync: booleanParam(params, "runAsync"),
  };
}

/**
 * Reads logs/settings/edit: each log setting as its own form field, unspecified ones
 * unchanged.
 */
export function parseLogSettingsEdit(
  params: ReadonlyMap<string, string>,
  current: LogSettings,
): LogSettings {
  const raw: Record<string, unknown> = {};
  for (const name of ["logLevel", "logDir"] as const) {
    const value = present(params, name);
    if (value !== undefined) raw[name] = value;
  }
  for (const name of ["maxErrorReportsCount", "maxLogFileAge"] as const) {
    const value = present(params, name);
    if (value !== undefined) raw[name] = /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  }
  return withoutUndefined(current, validated(LogSettingsParam, "settings", raw));
}
