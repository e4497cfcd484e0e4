"""Build the server's hot modules with mypyc into build/native (``make native``; ``ulti/native.py``).

    python scripts/build_native.py

The modules are compiled together (mypyc's calls between them are direct), out of the source tree, so
that a checkout's sources are never shadowed by compiled files: only ``ULTI_NATIVE=1`` loads them. The
manifest written last records each source's hash; ``ulti.native.activate`` refuses a build whose sources
changed since.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ulti.native import MANIFEST, NATIVE_DIR, NATIVE_MODULES, source_hashes, source_path  # noqa: E402


def main() -> int:
    """Compile ``NATIVE_MODULES`` into ``NATIVE_DIR`` and write its manifest."""
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    hashes = source_hashes()
    sources = [str(source_path(name).relative_to(ROOT)) for name in NATIVE_MODULES]
    if NATIVE_DIR.exists():
        shutil.rmtree(NATIVE_DIR)
    with tempfile.TemporaryDirectory() as temp:
        # mypyc works from the repository's root (module names from paths) and writes its C there
        extensions = mypycify(sources, opt_level="3", target_dir=str(Path(temp) / "c"))
        setup(
            name="ulti-native",
            ext_modules=extensions,
            script_args=["-q", "build_ext", "--build-lib", str(NATIVE_DIR), "--build-temp", str(Path(temp) / "o")],
        )
    (NATIVE_DIR / MANIFEST).write_text(json.dumps({"sources": hashes}, indent=1) + "\n")
    print(f"compiled {len(NATIVE_MODULES)} modules into {NATIVE_DIR}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
