"""Clause tree -> embeddings + FAISS + BM25; hybrid search.

Heavy imports (torch, faiss, sentence_transformers) happen inside the functions that need them.
"""
