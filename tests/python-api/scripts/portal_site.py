"""A portal in no site: signing in fails; Site.create (arcgis/gis/admin/_site.py) creates its
site with the initial administrator; GIS(url, user, password) then signs in as that
administrator; a second Site.create is refused."""
import json
from common import PORTAL_URL, PORTAL_USER, PORTAL_PASSWORD, gis, step, done


def sign_in():
    g = gis(use_gen_token=True)
    return {"username": g.users.me.username, "role": g.users.me.role, "isAdmin": g.admin is not None}


def create_site():
    from arcgis.gis._impl._con import Connection
    from arcgis.gis.admin._site import Site

    con = Connection(baseurl=PORTAL_URL, verify_cert=False)
    return Site.create(
        con,
        PORTAL_URL + "/portaladmin",
        username=PORTAL_USER,
        password=PORTAL_PASSWORD,
        full_name="Python Administrator",
        email="pyadmin@example.com",
        content_store=json.dumps(
            {"type": "fileStore", "provider": "FileSystem", "connectionString": "/arcgis/content"}
        ),
        description="Initial administrator",
        question_idx=1,
        question_ans="mascot",
        user_license="creatorUT",
    )


step("signInBefore", sign_in)
step("createSite", create_site)
step("signIn", sign_in)
step("createAgain", create_site)
done()
