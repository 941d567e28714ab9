"""Quick start in Python: a mission-server site (its upgrade completed when one is due, one system
property kept), a backup of its configuration downloaded to this machine, and a portal
collaboration whose deletion the stack owns.

The TypeScript quick start's resources (examples/quickstart) and two more, through the provider
plugin `pulumi-resource-arcgis-admin` and its Python SDK `pulumi_arcgis_admin`. Run it with `pulumi up`
in this folder (README.md). The connections are the package's `arcgis-admin:*` stack config keys
(docs/connection.md; each can also come from its `ARCGIS_ADMIN_*` environment variable); this
project's own keys are `collaborationId`, and optionally `portalId`, `downloadDir` and
`backupMaxBytes`; with `serverCertificatePfx` and `serverCertificatePassword` (both secrets) the
site's machine is also given the organisation's certificate (`caCertificate`,
`serverCertificateMachine` optional).
"""

from urllib.parse import urlparse

import pulumi

import pulumi_arcgis_admin as arcgis

config = pulumi.Config()

# Creates the site on a machine that is in no site yet (and leaves it running on destroy). Its
# adminUrl, administrator and TLS settings are the arcgis-admin:* stack config, which the plugin
# fills in as the provider's configuration.
site = arcgis.Site("site")

# Completes an upgrade when the site reports one due (after its software was upgraded in place);
# on a site that needs none it sends nothing.
upgrade = arcgis.SiteUpgrade(
    "site-upgrade",
    admin_url=site.admin_url,
    username=site.username,
    password=site.password,
)

# Keeps one system property as declared; every other property stays as the server has it, and
# `pulumi destroy` puts back what the stack changed.
properties = arcgis.SystemProperties(
    "site-properties",
    admin_url=site.admin_url,
    username=site.username,
    password=site.password,
    properties={"WebContextURL": "https://gis.example.com/mission"},
    restore_on_destroy=True,
    opts=pulumi.ResourceOptions(depends_on=[upgrade]),
)

# Exports the site configuration once the site exists, and downloads the archive. A new limit
# alone would only be recorded in state; replace_on_changes makes it a new backup.
backup = arcgis.SiteExport(
    "site-backup",
    admin_url=site.admin_url,
    username=site.username,
    password=site.password,
    download_to=config.get("downloadDir") or "site-exports",
    max_download_bytes=config.get_int("backupMaxBytes"),
    opts=pulumi.ResourceOptions(replace_on_changes=["max_download_bytes"]),
)

# Confirms the collaboration now; `pulumi destroy` deletes it (this portal is its host).
collaboration = arcgis.Collaboration(
    "partners",
    collaboration_id=config.require("collaborationId"),
    portal_id=config.get("portalId"),
)

# The machine's own certificate, only when the stack config gives one: a PKCS #12 file (base64)
# and its password, both secrets, and optionally the PEM of the CA that signed it.
pfx = config.get_secret("serverCertificatePfx")
pfx_password = config.get_secret("serverCertificatePassword")
if (pfx is None) != (pfx_password is None):
    raise ValueError(
        "serverCertificatePfx and serverCertificatePassword go together: set both, or neither."
    )
if pfx is not None:
    ca_pem = config.get("caCertificate")
    certificate = arcgis.ServerCertificate(
        "site-certificate",
        server_type=site.server_type,
        admin_url=site.admin_url,
        username=site.username,
        password=site.password,
        machine_name=config.get("serverCertificateMachine")
        or site.admin_url.apply(lambda url: urlparse(url).hostname),
        ca_certificates=[] if ca_pem is None else [{"alias": "orgroot", "pem": ca_pem}],
        pkcs12=pfx,
        cert_password=pfx_password,
        alias="quickstart",
        # Destroy binds the certificate the machine presented before, as the properties are put back.
        rebind_previous_on_destroy=True,
        # Bound last: the web server restarts for the bind, so nothing else of the stack is
        # talking to the machine then.
        opts=pulumi.ResourceOptions(depends_on=[upgrade, properties, backup, collaboration]),
    )
    pulumi.export("certificateFingerprint", certificate.sha256_fingerprint)

pulumi.export("siteAdminUrl", site.admin_url)
pulumi.export("siteState", site.state)
pulumi.export("siteVersion", site.server_version)
pulumi.export("backupFile", backup.local_path)
pulumi.export("backupSizeBytes", backup.size_bytes)
pulumi.export("backupSha256", backup.sha256)
pulumi.export("collaborationName", collaboration.name)
pulumi.export("collaborationRole", collaboration.role)
pulumi.export("serverProperties", properties.server_properties)
