"""The judges' knowledge base on top of the rules: rulings, accounts, review, history.

Mutable, unlike the rule artefacts: it lives in a database (SQLite in the data directory, or
PostgreSQL shared by several service replicas), reached only through :mod:`judgekb.kb.repo`
and :mod:`judgekb.kb.accounts`. ``kb`` imports ``corpus`` (to resolve cited clauses) and
``index.tokenize``; never ``service``.
"""
