"""Helpers the tests of both tiers share (tests/unit/, tests/integration/): the paths of the repository and of
the committed test data (paths.py), the plain oracles (brute.py), the private MariaDB server (mariadb.py) and
the headless browser (chromium.py). tests/conftest.py hands their fixtures to pytest."""
