"""``python -m ebsstats``: the command line (same as the ``ebsstats`` script)."""

from ebsstats.app.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
