"""`python -m pipeline`: the same as the `ladders` command (ladders.cli.main). The one module of the engine
that imports the product (tests/unit/house/test_house.py allows it): a launcher, which nothing in the engine imports."""

from ladders.cli import main

main()
