"""Token buckets: ``rate`` requests per second on average, ``burst`` at once — one
(:class:`TokenBucket`), or one per key (:class:`Buckets`)."""

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

    def give_back(self) -> None:
        """Return the token the last :meth:`take` used (the request was refused elsewhere)."""
        self.tokens = min(self.burst, self.tokens + 1.0)

    def wait(self) -> float:
        """Seconds until a token is there again (0: one is)."""
        now = time.monotonic()
        tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        return max(0.0, (1.0 - tokens) / self.rate)

    def full(self, now: float) -> bool:
        """Whether the bucket has filled up again (it is then the same as a new one)."""
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class Buckets:
    """A :class:`TokenBucket` per key (an account, an address), ``rate`` and ``burst`` each;
    once ``keep`` keys are held, those whose bucket has filled up again are forgotten."""

    def __init__(self, rate: float, burst: int, keep: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keep = keep
        self.buckets: dict[str, TokenBucket] = {}

    def bucket(self, key: str) -> TokenBucket:
        """``key``'s bucket (a new, full one for a key not held)."""
        found = self.buckets.get(key)
        if found is None:
            if len(self.buckets) >= self.keep:
                moment = time.monotonic()
                for old, bucket in list(self.buckets.items()):
                    if bucket.full(moment):
                        del self.buckets[old]
            found = self.buckets[key] = TokenBucket(self.rate, self.burst)
        return found
