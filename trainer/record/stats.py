"""Statistics of a run's steps that allow for their correlation: successive steps share a policy.

The first run's per-step reward residuals had a lag-1 autocorrelation of 0.53: a t that counts
steps as independent said 11.86 where the Newey-West t says 5.90 (docs/LOG.md, twenty-first
session). Every standard error here is Newey-West's (1987), Bartlett weights, with the lags of
Newey and West's (1994) rule; the slope's matches statsmodels' OLS with cov_type="HAC".
"""

from __future__ import annotations

import math
import statistics


def ols_slope(xs: list[float], ys: list[float]) -> tuple[float | None, float | None]:
    """(slope, t statistic) of y on x by least squares; t is None with fewer than 3 points or no residual."""
    n = len(xs)
    if n < 2:
        return None, None
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None, None
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    if n < 3:
        return slope, None
    residual = sum((y - my - slope * (x - mx)) ** 2 for x, y in zip(xs, ys, strict=True))
    if residual == 0:
        return slope, None
    return slope, slope / math.sqrt(residual / (n - 2) / sxx)


def newey_west_lags(n: int) -> int:
    """Lags of the Newey-West variance for a series of n points: floor(4 (n / 100)^(2/9)), 1 to n - 2.

    Newey and West's (1994) rule of thumb: 4 for 100 steps, 2 for 10.
    """
    return max(1, min(n - 2, math.floor(4 * (n / 100) ** (2 / 9))))


def hac_slope(xs: list[float], ys: list[float], lags: int | None = None) -> tuple[float | None, float | None]:
    """(slope, t statistic) of y on x by least squares, t from a Newey-West (1987) standard error.

    Successive steps of a run are not independent (a policy changes a little each step: the first
    run's residuals had a lag-1 autocorrelation of 0.53), and the plain t of `ols_slope` counts
    them as if they were. The variance of the slope is sum over lags l <= L of w_l times the sum of
    d_i e_i d_(i-l) e_(i-l) (twice for l > 0), with d the centred x, e the residuals, Bartlett
    weights w_l = 1 - l / (L + 1), divided by Sxx^2 and scaled by n / (n - 2); L from
    `newey_west_lags`. Points are taken in the order given (steps, ascending). The same as
    statsmodels' OLS with cov_type="HAC" (docs/LOG.md, twenty-first session).

    Returns:
        (None, None) with fewer than 2 points or constant x; t is None with fewer than 4 points or
        no residual.
    """
    slope, _ = ols_slope(xs, ys)
    n = len(xs)
    if slope is None or n < 4:
        return slope, None
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    d = [x - mx for x in xs]
    u = [di * (y - my - slope * di) for di, y in zip(d, ys, strict=True)]
    if not any(u):
        return slope, None
    lags = newey_west_lags(n) if lags is None else lags
    long_run = sum(v * v for v in u)
    for lag in range(1, lags + 1):
        long_run += 2 * (1 - lag / (lags + 1)) * sum(u[i] * u[i - lag] for i in range(lag, n))
    sxx = sum(di * di for di in d)
    variance = long_run / sxx**2 * n / (n - 2)
    return slope, (slope / math.sqrt(variance) if variance > 0 else None)


def hac_mean_se(values: list[float], lags: int | None = None) -> float | None:
    """The standard error of the mean of a series, allowing for its autocorrelation (Newey-West).

    sqrt((g_0 + 2 sum_(l <= L) (1 - l / (L + 1)) g_l) / n), g_l the series' autocovariance at lag
    l (divided by n), L from `newey_west_lags`. A window's 10 step means get L = 2.

    Returns:
        None with fewer than 3 values; 0.0 for a constant series.
    """
    n = len(values)
    if n < 3:
        return None
    mean = statistics.fmean(values)
    e = [v - mean for v in values]
    lags = newey_west_lags(n) if lags is None else lags
    long_run = sum(v * v for v in e) / n
    for lag in range(1, lags + 1):
        long_run += 2 * (1 - lag / (lags + 1)) * sum(e[i] * e[i - lag] for i in range(lag, n)) / n
    return math.sqrt(max(long_run, 0.0) / n)
