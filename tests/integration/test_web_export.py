"""What `ladders export-web` writes for the page, without a browser (issue 42): the manifest names the
lexicon the puzzles keep to (CSW when the export holds it, else one it holds) and the everyday label, and
drawing the puzzles walks a group whole a bounded number of times, not once per draw (export-web's CPU
went 2.3 -> 5.1 -> 17.4 s for a quarter, a half and all of raw/: bench/web_scale.py measures it)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from conftest import copy_tiny, no_everyday
from ladders.artifact import webexport
from ladders.artifact.contract import label_cutoffs
from ladders.cli import app
from ladders.solve.solver import Ladders

cli = CliRunner()


def _manifest(page) -> dict:
    return json.loads((page / "data/manifest.json").read_text())


def test_an_export_without_csw_names_the_lexicon_its_puzzles_keep_to(tmp_path):
    """Without csw the generator was asked for CSW all the same (no puzzle), and the page read group_csw."""
    root = copy_tiny(tmp_path)
    no_everyday(root)
    (root / "config.toml").write_text(
        (root / "config.toml").read_text().replace("[lexicons]\n", "[lexicons]\ncsw = false\n")
    )
    assert cli.invoke(app, ["build", "--quiet", "--config", str(root / "config.toml")]).exit_code == 0
    written = cli.invoke(app, ["export-web", str(tmp_path / "page"), "--export", str(root / "build/export")])
    assert written.exit_code == 0, written.output
    manifest = _manifest(tmp_path / "page")
    assert manifest["lexicons"] == ["owl"] and manifest["puzzle_lexicon"] == "owl"


def test_the_page_reads_the_everyday_label_from_its_manifest(tmp_path):
    """The common-word ladder's everyday words (cost 1) are the label of the export's `common` cut-off."""
    root = copy_tiny(tmp_path)
    assert cli.invoke(app, ["build", "--quiet", "--config", str(root / "config.toml")]).exit_code == 0
    export = root / "build/export"
    assert cli.invoke(app, ["export-web", str(tmp_path / "page"), "--export", str(export)]).exit_code == 0
    manifest = _manifest(tmp_path / "page")
    assert manifest["puzzle_lexicon"] == "csw"
    assert manifest["labels"][manifest["everyday"]] == "common" and "common" in label_cutoffs(export)
    for script in webexport.SCRIPTS:  # no cut-off or label number spelled in the page: the manifest's
        text = (webexport.PAGE / script).read_text()
        assert "35" not in text and '"label") === 0' not in text, script


class _Counted(list):
    """A group's list that counts the times it is walked whole."""

    passes = 0

    def __iter__(self):
        self.passes += 1
        return super().__iter__()


def test_drawing_the_pages_puzzles_walks_a_group_whole_a_bounded_number_of_times(raw_export, monkeypatch):
    """Each draw re-checked every word of its group (its label and flags) and walked the whole group: 2,564
    draws over groups of tens of thousands of words, most of export-web's time and growing faster than
    the words. A group is now walked whole a few times however many draws it serves."""
    opened = Ladders.group
    draws: dict[int, int] = {}
    seen: dict[int, tuple] = {}

    def group(self, column, group_id):
        g = opened(self, column, group_id)
        if id(g) not in seen:
            g.labels, g.adjacent = _Counted(g.labels), _Counted(g.adjacent)
            seen[id(g)] = g  # kept: an id is not reused while the group lives
        draws[id(g)] = draws.get(id(g), 0) + 1
        return g

    monkeypatch.setattr(Ladders, "group", group)
    drawn = webexport._puzzles(raw_export, "csw")
    assert drawn and max(draws.values()) > 50  # groups that serve many draws
    walks = {k: g.labels.passes + g.adjacent.passes for k, g in seen.items()}
    assert max(walks.values()) <= 4, sorted(walks.values())[-5:]
