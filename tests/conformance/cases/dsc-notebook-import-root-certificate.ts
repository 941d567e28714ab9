import type { ConformanceCase } from "../corpus";

/** DSC imports a root certificate into a Notebook Server machine's keystore. */
export const dscNotebookImportRootCertificate: ConformanceCase = {
  name: "dsc-notebook-import-root-certificate",
  serverType: "notebook-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server_TLS/ArcGIS_Server_TLS.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Import-RootOrIntermediateCertificate (Invoke-UploadFile to admin/machines/<machine>/sslCertificates/importRootOrIntermediate: rootCACertificate, f, token, alias lower-cased; Confirm-ResponseStatus), for every ServerType",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/notebook/import-root-certificate-notebook-server-.htm",
      states:
        "POST <notebookserveradmin>/machines/<machine>/sslCertificates/importRootOrIntermediate: alias, rootCACertificate (multi-part)",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/machines/{siteMachine}/sslCertificates/importRootOrIntermediate",
    params: { f: "json", alias: "rootca" },
    files: { rootCACertificate: "{rootCertificate}" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  client: {
    operation: "none",
    why: "The provider manages no certificates yet (issue 41); the case is evidence for the emulator only.",
  },
  assumptions: [
    'The answer {"status": "success"} on Notebook Server (its page shows none; Mission Server\'s shows it).',
  ],
};
