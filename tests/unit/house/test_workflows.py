"""The CI workflows (.github/workflows/) are thin over make targets: every `run:` step is `make TARGET`, a
target the Makefile defines; every action is pinned by a full commit; every job names its permissions and
the workflow grants none by default; and .ci/run runs each target a workflow runs that needs no code host.
(make lint checks the files themselves with actionlint and zizmor.)"""

from __future__ import annotations

import re

import pytest
from support.paths import ROOT

WORKFLOWS = sorted((ROOT / ".github/workflows").glob("*.yml"))
# Steps that talk to the code host (GitHub's CLI and API): the only ones .ci/run cannot run.
HOSTED = {"previous-release", "publish-release", "raw-tools", "raw-update", "raw-patch", "raw-pull-request"}


def make_targets() -> set[str]:
    return set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_every_step_is_a_make_target_and_every_action_is_pinned(workflow):
    text = workflow.read_text()
    runs = re.findall(r"^\s+(?:- )?run: (.+)$", text, re.M)
    assert runs and all(r.startswith("make ") for r in runs), runs
    targets = {r.split()[1] if not r.split()[1].startswith("-") else r.split()[2] for r in runs}
    assert targets <= make_targets(), targets - make_targets()
    uses = re.findall(r"uses: (\S+)", text)
    assert uses and all(re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", u) for u in uses), uses


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_permissions_are_granted_per_job_only(workflow):
    text = workflow.read_text()
    assert re.search(r"^permissions: \{\}$", text, re.M)
    jobs = re.findall(r"^  ([\w-]+):\n((?:    .*\n|\n)*)", text.split("\njobs:\n", 1)[1], re.M)
    assert jobs and all("    permissions:\n" in body for _, body in jobs), [name for name, _ in jobs]
    assert "persist-credentials: false" in text and "write-all" not in text


def test_ci_runs_every_workflow_target_that_needs_no_code_host():
    ci = (ROOT / ".ci/run").read_text()
    ran = set(re.findall(r"^make (?:--silent )?([\w-]+)", ci, re.M))
    used = set()
    for workflow in WORKFLOWS:
        for run in re.findall(r"run: make (?:--silent )?([\w-]+)", workflow.read_text()):
            used.add(run)
    assert used - HOSTED and used - HOSTED <= ran, (used - HOSTED) - ran
