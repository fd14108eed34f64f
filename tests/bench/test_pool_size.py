"""The pool-size benchmark's draws: the pool's tier proportions, and never without love or okay."""

import numpy as np

from tests.conftest import bench_module

pool_size = bench_module("pool_size")


def test_a_draw_keeps_the_tiers_proportions_by_largest_remainder():
    ranks = np.array([2] * 19 + [1] * 27 + [0] * 47)  # the starter: love 19, okay 27, nope 47
    chosen = pool_size.stratified(ranks, 8, np.random.default_rng(0))
    # 8 x (47, 27, 19) / 93 = 4.04, 2.32, 1.63: floors 4, 2, 1 and the one left goes to love (0.63)
    assert np.bincount(ranks[chosen], minlength=3).tolist() == [4, 2, 2]
    assert len(set(chosen.tolist())) == 8


def test_a_draw_has_a_love_and_an_okay_however_rare():
    ranks = np.array([2] + [1] + [0] * 98)
    chosen = pool_size.stratified(ranks, 8, np.random.default_rng(0))
    assert np.bincount(ranks[chosen], minlength=3).tolist() == [6, 1, 1]


def test_held_out_accuracy_is_over_the_pairs_left_out():
    # one feature decides: every painting's utility follows its tier, so any fit ranks them all
    ranks = np.array([2, 2, 1, 1, 0, 0] * 4)
    features = np.zeros((len(ranks), 24))
    features[:, :] = ranks[:, None] * 1.0 + np.linspace(0, 0.1, len(ranks))[:, None]
    assert pool_size.held_out_accuracy(features, ranks, np.arange(12)) == 1.0
