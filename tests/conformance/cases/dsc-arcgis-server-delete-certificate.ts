import type { ConformanceCase } from "../corpus";

/** DSC deletes a certificate from an ArcGIS Server machine's keystore (a root whose thumbprint changed). */
export const dscArcgisServerDeleteCertificate: ConformanceCase = {
  name: "dsc-arcgis-server-delete-certificate",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server_TLS/ArcGIS_Server_TLS.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Invoke-DeleteSSLCertForMachine (POST admin/machines/<machine>/sslCertificates/<alias lower-cased>/delete with f, token), called for a root whose thumbprint differs and for a replaced server certificate; Get-SSLCertificateForMachine then finds none (an error answer)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/deletecertificate",
      states:
        'POST <root>/machines/<machine>/sslcertificates/<certificate>/delete with f; {"status": "success"}',
    },
  ],
  given: "site-with-certificates",
  request: {
    method: "POST",
    path: "/admin/machines/{siteMachine}/sslCertificates/rootca/delete",
    params: { f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: {
      method: "GET",
      path: "/admin/machines/{siteMachine}/sslCertificates/rootca",
      params: { f: "json" },
    },
    answer: { httpStatus: 200, body: { status: "error", code: 404 } },
  },
  client: {
    operation: "none",
    why: "The provider manages no certificates yet (issue 41); the case is evidence for the emulator only.",
  },
  assumptions: [
    "A deleted certificate's resource answers code 404, as Ansible reads an absent one.",
  ],
};
