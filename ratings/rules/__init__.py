"""The ratings' pure rules: results and settings in, ratings and lists out, no Django (the
architecture test checks it, ``mypy --strict`` types them).

- ``glicko``: Glicko-2 on the glicko2 package, with the paper's step 5.
- ``method``: the rating method: monthly periods, pairwise session results, idle months in
  closed form, the rating list, the club ranking.
- ``ema``: the EMA ranking (MERS): base ranks, the age window, parts A and B (decision 0806).

The services and selectors load the rows and call these functions.
"""
