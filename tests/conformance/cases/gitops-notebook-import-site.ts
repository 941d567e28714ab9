import type { ConformanceCase } from "../corpus";

/** Esri's Notebook Server restore script: importSite with the archive's path on the machine. */
export const gitopsNotebookImportSite: ConformanceCase = {
  name: "gitops-notebook-import-site",
  serverType: "notebook-server",
  sources: [
    {
      repository: "Esri/arcgis-gitops",
      path: "aws/arcgis-notebook-server-linux/restore/importSite.sh",
      commit: "1254036ab438965776b0792e3876e098a183d9ff",
      symbol:
        'curl POST "location=$STAGING_FILE_PATH&token=$TOKEN&f=json" $ADMIN_URL/importSite; STATUS=.status == "success"',
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/notebook/import-site-notebook-server",
      states:
        "Notebook Server from 10.7.1 restores a site configuration from an .agssite backup made by exportSite; parameter location (the full path of the exported site)",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/importSite",
    params: { location: "{archive}", f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  client: { operation: "importSite", input: { location: "{archive}" } },
  assumptions: [
    "{archive} is an archive the replay exports first into a folder the emulator may read (the script downloads it to /tmp on the machine).",
  ],
};
