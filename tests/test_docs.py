"""The documents stand on their own: every relative link resolves to a file in
the repository, and every reference to the rule sources, the product's
decisions, the rule dimensions and the worked examples has its target in
docs/rules.md (never a file outside the repository)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

# no core plays in these tests (tools/core_calls.py: 0 calls of core.native, no
# process, under BONES_CORE=native): the Python-core pass of .ci/run only (issue 37)
pytestmark = pytest.mark.core_blind

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SKIP_DIRS = {".venv", "build", "target", ".git", "node_modules", "dist", ".hypothesis", ".pytest_cache"}
SKIP_FILES = {RULES, Path(__file__).resolve()}


def _files() -> list[Path]:
    out = []
    for path in ROOT.rglob("*"):
        if set(path.relative_to(ROOT).parts) & SKIP_DIRS or not path.is_file() or path in SKIP_FILES:
            continue
        if path.suffix in (".py", ".md", ".yaml", ".yml", ".rs", ".toml"):
            out.append(path)
    return sorted(out)


FILES = _files()
LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_relative_link_resolves(doc: Path) -> None:
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
    broken = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # an address, or a place in this document
        path = target.split("#", 1)[0]
        if not (doc.parent / path).exists():
            broken.append(target)
    assert not broken, f"{doc.name}: links to files not in the repository: {broken}"


def _rules_text() -> str:
    return RULES.read_text(encoding="utf-8")


def _labels() -> dict[str, set[str]]:
    text = _rules_text()
    decisions = set(re.findall(r"^(\d+)\. \*\*", text.split("## The built-in variants")[0], flags=re.M))
    sources = set(re.findall(r"^\| ([A-Z][A-Za-z0-9-]*) \|", text, flags=re.M))
    examples = set(re.findall(r"^## (S\d+)\b", text, flags=re.M))
    dimensions = set(re.findall(r"^### (D\d+)\.", text, flags=re.M))
    disagreements = set(re.findall(r"^## (D-\d+)\.", text, flags=re.M))
    return {"decision": decisions, "source": sources, "example": examples,
            "dimension": dimensions, "disagreement": disagreements}


def test_docs_rules_defines_what_the_code_cites() -> None:
    labels = _labels()
    assert labels["decision"] == {str(n) for n in range(1, 13)}
    assert {f"SEED{n}" for n in range(5)} <= labels["source"]
    assert {f"S{n}" for n in range(1, 23)} <= labels["example"]
    for seed in range(5):  # each primary source is cited by title and address
        row = next(line for line in _rules_text().splitlines() if line.startswith(f"| SEED{seed} |"))
        assert '"' in row and ("<http" in row or "carries no" in row), row


CITES = re.compile(r"\b(?:[Dd]ecisions? (\d+)(?:(?:, | and )(\d+))*|SEED\d|RULES\.md)")


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_citation_has_a_target_in_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    if "shared/RULES" in text or re.search(r"(?<![/\w])RULES\.md", text):
        pytest.fail(f"{path.name} cites RULES.md, which is not in the repository: cite docs/rules.md")
    labels = _labels()
    cited_decisions = {n for m in re.finditer(r"\b[Dd]ecisions? ((?:\d+(?:, | and |, and )?)+)", text)
                       for n in re.findall(r"\d+", m.group(1))}
    cited_sources = set(re.findall(r"\bSEED\d+\b", text))
    if not (cited_decisions or cited_sources):
        return
    assert "rules.md" in text, f"{path.name} cites decisions or sources but never says where: docs/rules.md"
    assert cited_decisions <= labels["decision"], f"{path.name}: no such decision {cited_decisions - labels['decision']}"
    assert cited_sources <= labels["source"], f"{path.name}: no such source {cited_sources - labels['source']}"


def test_the_readme_stays_a_front_page() -> None:
    # issue 19: the set-up, what bones is, a tour and links; the detail lives in docs/
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 400, f"README.md has {lines} lines: move detail to docs/ (at most 400)"
