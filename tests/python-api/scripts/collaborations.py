"""gis.admin.collaborations: list, get, delete (host), remove_participation (guest)."""
from common import gis, step, done

g = gis()
manager = g.admin.collaborations
step("list", lambda: sorted([c.id, c.name] for c in manager.list()))


def get(cid):
    from arcgis.gis.admin._collaboration import Collaboration

    c = Collaboration(manager, cid)
    return {"id": c.id, "name": c.name, "host": c.collaborationHostPortalId}


step("get", lambda: get("hosted1"))
step("getUnknown", lambda: get("no-such-collaboration"))
collabs = {c.id: c for c in manager.list()}
step("deleteHosted", lambda: collabs["hosted2"].delete())
step("deleteAsGuest", lambda: collabs["joined1"].delete())
step("removeParticipation", lambda: collabs["joined1"].remove_participation())
step("listAfter", lambda: sorted(c.id for c in manager.list()))
done()
