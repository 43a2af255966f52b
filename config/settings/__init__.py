"""Settings package: base.py holds everything shared; dev/test/production adjust it."""
