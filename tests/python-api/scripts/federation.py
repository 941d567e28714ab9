"""Create a site with arcgis.gis.server.Server._create, export it with Server, and federate it
with gis.admin.federation: federate, servers, update, validate, validate_all, unfederate."""
from common import ADMIN_URL, SITE_URL, SITE_USER, SITE_PASSWORD, create_site, gis, step, done


step("createSite", create_site)


def server():
    from arcgis.gis.server import Server

    return Server(url=ADMIN_URL, username=SITE_USER, password=SITE_PASSWORD, verify_cert=False)


step("export", lambda: server().site.export())
g = gis()
fed = g.admin.federation
step("federate", lambda: fed.federate(SITE_URL, SITE_URL, SITE_USER, SITE_PASSWORD))
servers = step("servers", lambda: fed.servers)
sid = servers["servers"][0]["id"] if servers and servers.get("servers") else "missing"
step("update", lambda: fed.update(sid, "FEDERATED_SERVER", "MissionServer"))
step("serversAfterUpdate", lambda: fed.servers)
step("validate", lambda: fed.validate(sid))
step("validateAll", lambda: fed.validate_all())
step("unfederate", lambda: fed.unfederate(sid))
step("serversAfter", lambda: fed.servers)
done()
