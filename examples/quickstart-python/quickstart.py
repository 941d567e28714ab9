"""Quick start in Python: a mission-server site, a backup of its configuration downloaded to this
machine, and a portal collaboration whose deletion the stack owns.

The same stack as the TypeScript quick start (examples/quickstart), through the provider plugin
`pulumi-resource-arcgis-admin` and its Python SDK `pulumi_arcgis_admin`. The program is run inline
by Pulumi's automation API (this file is both the program and its driver), with this folder as the
project's workspace:

    python quickstart.py config < settings.json   # stores the stack's config (secrets encrypted)
    python quickstart.py up                       # also: preview, refresh, destroy
    python quickstart.py up --stack prod          # another stack (default: dev)

The stack config holds the package's connection keys (docs/connection.md; each can also come from
its `ARCGIS_ADMIN_*` environment variable, which the plugin reads):

- `arcgis-admin:adminUrl`: the mission server's admin root, e.g.
  `https://gis.example.com:20443/arcgis/admin`;
- `arcgis-admin:username`, `arcgis-admin:password` (secret): the primary administrator to create;
- `arcgis-admin:sharingUrl`: the portal's sharing root, e.g.
  `https://gis.example.com/portal/sharing/rest`;
- `arcgis-admin:portalUsername`, `arcgis-admin:portalPassword` (secret): a portal administrator;
- `arcgis-admin:caCert` (optional): the PEM of the CA that signed the servers' certificates;

and this project's own:

- `collaborationId`: a collaboration this portal hosts;
- `portalId` (optional): this portal's id, looked up when omitted;
- `downloadDir` (optional): where the backup goes, default `site-exports`;
- `backupMaxBytes` (optional): the largest backup to download. A new limit takes a new backup
  (`replace_on_changes`): on its own, the limit would only be updated in the stack's state.

`config` reads a JSON object from stdin, each key's value a string, or `{"secret": "..."}` for a
secret (so that no password is in the shell's history or the process list). `pulumi config set`
in this folder does the same, key by key.

The Pulumi CLI, the backend and the passphrase come from the environment as for any Pulumi
command: `pulumi` and `pulumi-resource-arcgis-admin` on PATH, PULUMI_BACKEND_URL,
PULUMI_CONFIG_PASSPHRASE.
"""

import argparse
import json
import sys
from pathlib import Path

import pulumi
from pulumi import automation as auto

import pulumi_arcgis_admin as arcgis

PROJECT = "arcgis-admin-quickstart-python"
HERE = Path(__file__).resolve().parent


def program() -> None:
    """The stack's resources: what `pulumi up` deploys."""
    config = pulumi.Config()
    max_bytes = config.get_int("backupMaxBytes")

    # Creates the site on a machine that is in no site yet (and leaves it running on destroy).
    # Its adminUrl, administrator and TLS settings are the arcgis-admin:* stack config, which the
    # plugin fills in as the provider's configuration.
    site = arcgis.Site("site")

    # Exports the site configuration once the site exists, and downloads the archive. The path
    # stays relative (to this folder): a changed downloadTo would export again.
    backup = arcgis.SiteExport(
        "site-backup",
        admin_url=site.admin_url,
        username=site.username,
        password=site.password,
        download_to=config.get("downloadDir") or "site-exports",
        max_download_bytes=max_bytes,
        opts=pulumi.ResourceOptions(replace_on_changes=["max_download_bytes"]),
    )

    # Confirms the collaboration now; `destroy` deletes it (this portal is its host). The portal
    # and its administrator are the arcgis-admin:* stack config.
    collaboration = arcgis.Collaboration(
        "partners",
        collaboration_id=config.require("collaborationId"),
        portal_id=config.get("portalId"),
    )

    pulumi.export("siteAdminUrl", site.admin_url)
    pulumi.export("siteState", site.state)
    pulumi.export("siteVersion", site.server_version)
    pulumi.export("backupFile", backup.local_path)
    pulumi.export("backupSizeBytes", backup.size_bytes)
    pulumi.export("backupSha256", backup.sha256)
    pulumi.export("collaborationName", collaboration.name)
    pulumi.export("collaborationRole", collaboration.role)


def stack_of(name: str) -> auto.Stack:
    """The stack (created when it does not exist), with this folder as its workspace."""
    return auto.create_or_select_stack(
        stack_name=name,
        project_name=PROJECT,
        program=program,
        opts=auto.LocalWorkspaceOptions(work_dir=str(HERE)),
    )


def set_config(stack: auto.Stack, text: str) -> None:
    """Stores the settings of a JSON object as the stack's config (secrets encrypted)."""
    settings = json.loads(text)
    if not isinstance(settings, dict):
        raise SystemExit('config: stdin must hold a JSON object {"key": "value", ...}')
    values = {}
    for key, value in settings.items():
        if isinstance(value, dict) and set(value) == {"secret"}:
            values[key] = auto.ConfigValue(value=str(value["secret"]), secret=True)
        elif isinstance(value, str):
            values[key] = auto.ConfigValue(value=value)
        else:
            raise SystemExit(f'config: {key} must be a string or {{"secret": "..."}}')
    stack.set_all_config(values)
    print(f"config: {', '.join(sorted(values))} set on stack {stack.name}")


def show(changes, outputs=None) -> None:
    """Prints the change summary and the outputs (secret ones masked), each as one JSON line."""
    print("Changes: " + json.dumps(changes or {}, sort_keys=True))
    if outputs is not None:
        shown = {k: "[secret]" if v.secret else v.value for k, v in outputs.items()}
        print("Outputs: " + json.dumps(shown, sort_keys=True))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["config", "preview", "up", "refresh", "destroy"])
    parser.add_argument("--stack", default="dev", help="the stack's name (default: dev)")
    args = parser.parse_args(argv)
    stack = stack_of(args.stack)
    echo = {"on_output": print}
    if args.command == "config":
        set_config(stack, sys.stdin.read())
    elif args.command == "preview":
        show(stack.preview(diff=True, **echo).change_summary)
    elif args.command == "up":
        result = stack.up(**echo)
        show(result.summary.resource_changes, result.outputs)
    elif args.command == "refresh":
        show(stack.refresh(**echo).summary.resource_changes)
    else:
        show(stack.destroy(**echo).summary.resource_changes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
