import type { ConformanceCase } from "../corpus";

/** Chef sets an ArcGIS Server machine's web server certificate: every setting sent back, the alias changed; the read shows it. */
export const chefArcgisServerEditMachine: ConformanceCase = {
  name: "chef-arcgis-server-edit-machine",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#set_server_ssl_certificate (POST admin/machines/<machine>/edit: machineName, adminURL, webServerMaxHeapSize, webServerCertificateAlias = the new alias, appServerMaxHeapSize, socMaxHeapSize, OpenEJBPort, JMXPort, NamingPort, DerbyPort from machine_info's ports (absent: empty), token, f=json) (line 471); the same form from #set_machine_properties (line 1041) and #set_server_admin_url; providers/server.rb :configure_https",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server_TLS/ArcGIS_Server_TLS.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Update-SSLCertificate (POST admin/machines/<machine>/edit with every field of the machine resource, ports empty, f, token; success when status is 'success')",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/editmachine",
      states:
        "POST <machine-url>/edit: adminURL, webServerMaxHeapSize, webServerCertificateAlias, appServerMaxHeapSize, socMaxHeapSize, f",
    },
  ],
  given: "site-with-certificates",
  request: {
    method: "POST",
    path: "/admin/machines/{siteMachine}/edit",
    params: {
      machineName: "{siteMachine}",
      adminURL: "https://{siteMachine}:6443/arcgis/admin",
      webServerMaxHeapSize: -1,
      webServerCertificateAlias: "gisserver.example.com",
      appServerMaxHeapSize: 256,
      socMaxHeapSize: 128,
      OpenEJBPort: "",
      JMXPort: "",
      NamingPort: "",
      DerbyPort: "",
      f: "json",
    },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: { method: "POST", path: "/admin/machines/{siteMachine}", params: { f: "json" } },
    answer: {
      httpStatus: 200,
      body: {
        machineName: "{siteMachine}",
        adminURL: "https://{siteMachine}:6443/arcgis/admin",
        webServerCertificateAlias: "gisserver.example.com",
        socMaxHeapSize: 128,
        webServerMaxHeapSize: -1,
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no machine settings; the case is evidence for the emulator only.",
  },
  assumptions: [
    'The answer {"status": "success"} (DSC reads status; the docs page shows no answer); the machine restarts after the answer (the new certificate is presented after the emulator\'s restart delay); empty and unknown parameters are ignored.',
  ],
};
