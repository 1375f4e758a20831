"""The composition point: the one module of the engine and the product (pipeline/, ladders/) that imports stages/. It hands the numbered
stages to the engine (a Runner over stages.STAGE_MODULES, and the product's optional targets of
ladders/targets.py) and lends verify the stage's own morphology (E502
asks which words are forms of an offensive word, by the same suffix rules stage 2 used)."""

from __future__ import annotations

from collections.abc import Callable

from pipeline.config import Config
from pipeline.runner import Runner
from pipeline.stage import Stage
from stages import STAGE_MODULES


def runner(
    config: Config, echo: Callable[[str], None] = lambda s: None, jobs: int | None = None, with_: tuple[str, ...] = ()
) -> Runner:
    """A Runner of every stage of this project, and of the targets named in `with_` (ladders/targets.py:
    sql, web), which run after the export like stages."""
    from ladders.targets import targets

    return Runner(config, echo, jobs, stage_modules=STAGE_MODULES, targets=targets(with_))


def stages() -> list[Stage]:
    """Every stage, in DAG order."""
    from pipeline.registry import all_stages

    return all_stages(STAGE_MODULES)


def proposed_bases(*args, **kwargs):
    """stages.rules.morphology.proposed_bases (stage 2's suffix rules), imported when verify asks."""
    from stages.rules.morphology import proposed_bases as bases

    return bases(*args, **kwargs)
