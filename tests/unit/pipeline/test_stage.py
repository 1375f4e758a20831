"""pipeline/stage.py's code files, found by scanning imports: every project module a transform or a target
imports, even inside a function, is one of them (an edit to it makes the stage stale); the runner's builds:
tests/integration/test_runner.py."""

from __future__ import annotations


def test_a_stage_code_files_are_every_project_module_its_transform_imports(tmp_path, monkeypatch):
    """Staleness hashes the stage's code files; a module left out would let its edits go unnoticed (the
    MySQL dump's plain-text rule comes from pipeline/terminal.py, which the sql target once did not
    declare). The engine finds them by scanning imports: a module imported inside a function, by a module
    the transform's module imports, is one of the stage's code files; a harmless one (messages) is not."""
    import stages
    from pipeline import stage as stage_module
    from pipeline.stage import ALWAYS, Output, Stage

    (tmp_path / "zz_fake_stage.py").write_text(
        "from pipeline.errors import UsageError\nfrom stages import zz_fake_middle\n\n\n"
        "def transform():\n    raise UsageError(zz_fake_middle.go())\n"
    )
    (tmp_path / "zz_fake_middle.py").write_text("def go():\n    from stages.zz_fake_deep import x\n\n    return x\n")
    (tmp_path / "zz_fake_deep.py").write_text("x = 1\n")
    monkeypatch.setattr(stages, "__path__", [*stages.__path__, str(tmp_path)])
    caches = (stage_module.project_imports, stage_module._direct_imports, stage_module._source)
    for scan in caches:
        scan.cache_clear()
    from stages.zz_fake_stage import transform

    try:
        files = Stage(number=99, name="fake", transform=transform, writes={"x": Output("x")}).code_files()
    finally:
        for scan in caches:
            scan.cache_clear()
    names = {f.name for f in files}
    assert {"zz_fake_stage.py", "zz_fake_middle.py", "zz_fake_deep.py"} <= names
    assert "errors.py" not in names
    assert {f"{m.split('.')[-1]}.py" for m in ALWAYS} <= names


def test_the_sql_target_code_files_hold_the_dump_and_the_plain_text_rule():
    """The targets import their writers inside functions: the scan still finds them."""
    from ladders.targets import SQL, WEB

    for target in (SQL, WEB):
        names = {f"{f.parent.name}/{f.name}" for f in target.code_files()}
        assert {"artifact/sqldump.py", "artifact/webexport.py", "pipeline/terminal.py", "solve/search.py"} <= names
