"""A stand-in for the embedding model, as source text for the worker processes tests start.

Tests about concurrency, crashes and forgetting start worker processes, and loading the real
model in each one costs seconds and tells those tests nothing: what they check is the store's
bookkeeping. The stand-in keeps the model's id and dimension (so the collection accepts it)
and derives each vector from a hash of the text. Paste it into a worker's script and pass
``embedder=StandInEmbedder()``.
"""

STANDIN_EMBEDDER = '''
import hashlib
import numpy as np
from memcourse.embeddings import Embedder

class StandInEmbedder(Embedder):
    def _encode(self, texts):
        rows = [np.frombuffer(hashlib.sha512(t.encode()).digest() * 6, dtype=np.uint8)[:384] for t in texts]
        vectors = np.array(rows, dtype=np.float32) - 127.5
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    def known_token_ratio(self, text):
        return 1.0
'''
