"""The shared kernel's pure rules: plain values in and out, no Django (the architecture
test checks it, ``mypy --strict`` types them). ``date_windows``: the plausible window of
every date a person enters."""
