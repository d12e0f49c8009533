"""The seed competitions (seeds/000–003) scripted as their clients run them, through the HTTP driver.

Each ``seed_NNN.run`` plays one competition end to end and answers a record of what it posted
and what the service refused; the scenario tests check that record and the service's standings
against their own computation, and ``zhisai demo`` loads the same script into a local database.
"""
