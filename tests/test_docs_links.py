"""Nothing in the repository cites a page it lacks: every docs/ path named in code, settings or pages
exists, every upper-case page name (README.md, ...) is a file of the repository, and every relative
link of a Markdown page leads to a file and, with an anchor, to a heading of it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT = (".py", ".js", ".css", ".html", ".md", ".toml", ".sh", ".cfg", ".txt", ".yml", ".yaml", ".ini")

def _tracked() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / name for name in out.split() if name.endswith(TEXT) and (ROOT / name).is_file()]


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found: set[str] = set()
    in_code = False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        match = None if in_code else re.match(r"#{1,6} (.*)", line)
        if match:
            slug = _slug(match.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def test_every_cited_doc_exists() -> None:
    missing = []
    names = {path.name for path in _tracked() if path.suffix == ".md"}  # not build/'s old checkouts
    for path in _tracked():
        text = path.read_text(errors="replace")
        for cited in set(re.findall(r"\bdocs/[\w/.-]*?\.md\b", text)):
            if not (ROOT / cited).is_file():
                missing.append(f"{path.relative_to(ROOT)}: {cited}")
        for name in set(re.findall(r"\b[A-Z][A-Z_-]+\.md\b", text)):
            if name not in names:
                missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, "cited pages the repository lacks:\n" + "\n".join(sorted(missing))


def test_every_markdown_link_resolves() -> None:
    broken = []
    for page in _tracked():
        if page.suffix != ".md":
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "broken links:\n" + "\n".join(sorted(broken))

