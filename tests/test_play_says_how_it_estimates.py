"""play names the method its estimates come from: it said "depth-limited search" while Monte
Carlo tree search was thinking (Othello 8x8 has no evaluation function)."""

from __future__ import annotations

from conftest import run_cli


def test_play_says_monte_carlo_where_monte_carlo_thinks() -> None:
    ran = run_cli("play", "othello", stdin="quit\n", timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert "estimates from Monte Carlo tree search" in ran.stdout
    assert "depth-limited search" not in ran.stdout
    # 8x8 Othello's start is past the kernel's declared reach (Othello.solvable): no ten
    # seconds spent looking for its value before the first move.
    assert "Looking further" not in ran.stdout


def test_play_says_depth_limited_search_where_the_engine_thinks() -> None:
    ran = run_cli("play", "chess", stdin="quit\n", timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert "depth-limited search" in ran.stdout
    assert "Monte Carlo" not in ran.stdout
