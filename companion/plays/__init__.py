"""Play history: what a group keeps after a game.

- build.py   pure: a finished table's document -> a play (players in seat order, scores in the game's own
             terms, ranks, winners, the start player)
- stats.py   pure: plays -> per-player and per-game stats, head to head, merged spellings
- chart.py   pure: the stats as a server-made SVG chart (no chart script)
- export.py  pure: a play as BG Stats JSON and link, a group's plays as CSV, a short result text
- rematch.py pure: the next table's players and the game's own first-player rule
- transfer.py pure: a table as JSON (document and history) and the checks an import must pass
- sync.py    the database side: keep a table's play in step with its document; groups
- views.py   the groups blueprint and the per-table routes (rematch, exports, import)
"""
