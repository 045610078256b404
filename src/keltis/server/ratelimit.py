"""A token bucket: ``rate`` requests per second on average, ``burst`` at once."""

from __future__ import annotations

import time


class TokenBucket:
    """Allows ``burst`` requests at once and ``rate`` per second after that."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Use one token; ``False`` (and nothing used) if none is left."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
