"""Rulebook text -> clause tree: parse, repair Thai, correct OCR, cross-refs, lint, store.

This package never imports :mod:`judgekb.index` or :mod:`judgekb.service`.
"""
