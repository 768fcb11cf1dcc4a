import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

from games.uploads import ASGIBodyLimit  # noqa: E402  (needs the settings configured above)

# Refuse oversize bodies before Django reads them (games/uploads.py says why).
application = ASGIBodyLimit(django_application)
