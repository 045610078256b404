"""PyTorch stays optional: keltis.env, its environments and the bot specs import without it;
only keltis.env.torch_policy (and examples/train_ppo.py) need it."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("gymnasium", reason="pip install 'keltis[rl]'")

CHECK = """
import sys
import keltis.env, keltis.env.gym_env, keltis.env.linear, keltis.env.keltis_cards_v0
from keltis.bots import BotSpec
BotSpec.parse("learned=ppo-cards.pt")
assert "torch" not in sys.modules, "keltis.env imported torch"
"""


def test_keltis_env_imports_without_torch() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
