/**
 * `system/directories/register` on ArcGIS Server: a new server directory, as DSC's
 * ArcGIS_Server_RegisterDirectories adds each directory of its list the site does not have.
 *
 * Evidence:
 * - What the client sends and reads: Esri/arcgis-powershell-dsc at
 *   df1baa2fb78f56780160dbf048435b8a8ca800cb,
 *   `Modules/ArcGIS/DSCResources/ArcGIS_Server_RegisterDirectories/ArcGIS_Server_RegisterDirectories.psm1`:
 *   `Get-RegisteredDirectories` (GET `system/directories`, f=pjson, token; reads
 *   `directories.name`) and `Set-RegisteredDirectory` (POST `system/directories/register` with
 *   f=pjson, token, `name`, `physicalPath`, `directoryType`), from `Set-TargetResource` for each
 *   name not listed yet.
 * - https://developers.arcgis.com/rest/enterprise-administration/server/registerdirectory.htm
 *   (`name`, `physicalPath`, `directoryType`, `cleanupMode` NONE by default, `maxFileAge`,
 *   `description`; `{"status": "success"}`) and ArcGIS Server's createNewSite page (exactly one
 *   SYSTEM directory).
 * Assumptions (docs/emulator.md): the texts of the refusals (code 400 naming the parameter: a
 * missing value, a type the product does not have, a second SYSTEM directory, a name the site
 * already has in any letter case, an unknown cleanup mode, a maxFileAge that is not a whole
 * number of zero or more); the path is recorded, never created.
 */
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import { CLEANUP_MODES, type DirectoryRecord } from "../core/state";
import { refuseDuringExport, siteUnavailableError } from "./site";

function required(req: ApiRequest, name: string): string {
  const value = req.params.get(name)?.trim() ?? "";
  if (value === "") throw new AdminError(400, [`The parameter '${name}' is required.`]);
  return value;
}

/** `POST system/directories/register`. */
export async function registerDirectory(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const name = required(req, "name");
  const physicalPath = required(req, "physicalPath");
  const directoryType = required(req, "directoryType");
  const types = rt.product.directoryTypes(rt.options.serverVersion);
  if (!types.includes(directoryType)) {
    throw new AdminError(400, [
      `Invalid value for the parameter 'directoryType': use one of ${types.join(", ")}.`,
    ]);
  }
  if (directoryType === "SYSTEM") {
    throw new AdminError(400, [
      "Invalid value for the parameter 'directoryType': a site has exactly one SYSTEM directory, made with the site.",
    ]);
  }
  const cleanupMode = req.params.get("cleanupMode")?.trim() || "NONE";
  if (!(CLEANUP_MODES as readonly string[]).includes(cleanupMode)) {
    throw new AdminError(400, [
      `Invalid value for the parameter 'cleanupMode': use one of ${CLEANUP_MODES.join(", ")}.`,
    ]);
  }
  const ageText = req.params.get("maxFileAge")?.trim() || "0";
  const maxFileAge = Number(ageText);
  if (!Number.isInteger(maxFileAge) || maxFileAge < 0) {
    throw new AdminError(400, [
      "Invalid value for the parameter 'maxFileAge': a whole number of zero or more.",
    ]);
  }
  const record: DirectoryRecord = {
    name,
    physicalPath,
    directoryType: directoryType as DirectoryRecord["directoryType"],
    cleanupMode: cleanupMode as DirectoryRecord["cleanupMode"],
    maxFileAge,
    description: req.params.get("description") ?? "",
  };
  await rt.store.update((draft) => {
    refuseDuringExport(rt);
    if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
    if (draft.site.directories.some((d) => d.name.toLowerCase() === name.toLowerCase())) {
      throw new AdminError(400, [
        `Invalid value for the parameter 'name': the site already has a directory named '${name}'.`,
      ]);
    }
    draft.site.directories.push(record);
  });
  return json({ status: "success" });
}
