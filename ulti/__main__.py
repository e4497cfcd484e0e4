"""``python -m ulti``: the ``ulti`` command (``ulti.cli``)."""

import sys

from ulti.cli import main

if __name__ == "__main__":
    sys.exit(main())
