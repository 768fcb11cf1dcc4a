import pytest


@pytest.fixture(scope="session", autouse=True)
def _stop_listening(django_db_setup):
    """The PostgreSQL listener (one per process) holds a connection to the test database: close
    it before the database is dropped."""
    yield
    from games import live

    live.listener.stop()
