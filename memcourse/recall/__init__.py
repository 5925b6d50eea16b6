"""Recall: turning a query into a short, ranked, trustworthy list of memories.

One module per idea: ``keyword`` (overlap scoring, the first baseline), ``bm25``
(Chinese-aware BM25), ``fusion`` (Reciprocal Rank Fusion), ``decay`` (time decay and
access boost), ``admission`` (the read-time gate), ``packing`` (building the prompt block).
"""
