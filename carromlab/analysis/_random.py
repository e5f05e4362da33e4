"""Counter-based random numbers: every draw is a pure function of (seed, cell, replica, dim).

A sweep split into chunks, run on threads or on a Dask cluster, and resumed after an
interruption must draw the same noise for the same shot. A sequential generator would
tie the draws to the order in which chunks run; here each draw is the SplitMix64 hash
(Steele, Lea & Flood, *OOPSLA* 2014, doi:10.1145/2660193.2660195) of a counter that
packs the shot's indices, keyed by two 64-bit words derived from the seed with
:class:`numpy.random.SeedSequence`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt
from scipy.special import ndtri

__all__ = ["MAX_CELLS", "MAX_REPLICAS", "N_DIMS", "standard_uniform", "standard_normal"]

#: Bits of the counter given to the noise dimension, the replica and the cell.
_DIM_BITS, _REPLICA_BITS = 3, 21
#: Noise dimensions per shot (placement, depth, angle, speed, spin), at most 2**3.
N_DIMS = 5
#: Largest number of replicas per cell, 2**21.
MAX_REPLICAS = 1 << _REPLICA_BITS
#: Largest number of cells in one sweep, 2**40.
MAX_CELLS = 1 << (64 - _DIM_BITS - _REPLICA_BITS)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _mix(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """The SplitMix64 finaliser, in place (wrapping uint64 arithmetic on arrays); returns ``z``."""
    z ^= z >> np.uint64(30)
    z *= _M1
    z ^= z >> np.uint64(27)
    z *= _M2
    z ^= z >> np.uint64(31)
    return z


@lru_cache(maxsize=4096)
def _keys(seed: int | tuple[int, ...]) -> tuple[np.uint64, np.uint64]:
    """The two key words of a seed's entropy (:class:`numpy.random.SeedSequence`),
    memoised: a game draws every shot's errors from its one seed."""
    k1, k2 = np.random.SeedSequence(seed).generate_state(2, np.uint64)
    return k1, k2


def _key_words(seed: int | tuple[int, ...] | npt.NDArray[np.integer]) -> tuple[npt.ArrayLike, npt.ArrayLike]:
    """Key words of one seed (an int or a tuple of ints: one entropy) or of an array of
    seeds (one per shot, the array's shape)."""
    if not isinstance(seed, np.ndarray):
        return _keys(int(seed) if np.ndim(seed) == 0 else tuple(int(s) for s in seed))
    distinct, inverse = np.unique(seed, return_inverse=True)
    keys = np.array([_keys(int(s)) for s in distinct.tolist()], dtype=np.uint64)[inverse.reshape(seed.shape)]
    return keys[..., 0], keys[..., 1]


def standard_uniform(seed: int | tuple[int, ...] | npt.NDArray[np.integer], cell: npt.ArrayLike, replica: npt.ArrayLike, dim: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Uniform draws on the open interval (0, 1), one per (seed, cell, replica, dim).

    Parameters
    ----------
    seed : int, tuple of int or numpy.ndarray of int
        Non-negative seed of the sweep (a tuple is one seed's entropy, e.g. a stage of a
        search), or one seed per draw (e.g. per game: an array broadcast against the
        indices).
    cell, replica : array_like of int
        Indices of the grid cell (< :data:`MAX_CELLS`) and of the replica
        (< :data:`MAX_REPLICAS`), broadcast against each other and ``dim``.
    dim : int or array_like of int
        Noise dimension, in [0, 8) (several at once: an array broadcast against
        ``cell`` and ``replica``).

    Returns
    -------
    numpy.ndarray of float64
        53-bit uniforms, never exactly 0 or 1.
    """
    k1, k2 = _key_words(seed)
    c, r, d = (np.asarray(cell, dtype=np.uint64), np.asarray(replica, dtype=np.uint64), np.asarray(dim, dtype=np.uint64))
    # the shifts on the indices as given, the counter and its hash (in place) on the broadcast shape
    counter = np.atleast_1d((c << np.uint64(_DIM_BITS + _REPLICA_BITS)) | (r << np.uint64(_DIM_BITS)) | d)
    counter *= _GOLDEN
    h = _mix(counter + k1)
    h ^= k2
    _mix(h)
    h >>= np.uint64(11)
    u = h.astype(np.float64)
    u += 0.5
    u *= 2.0**-53
    return u


def standard_normal(seed: int | tuple[int, ...] | npt.NDArray[np.integer], cell: npt.ArrayLike, replica: npt.ArrayLike, dim: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Standard normal draws, the inverse normal CDF of :func:`standard_uniform`."""
    u = standard_uniform(seed, cell, replica, dim)
    return ndtri(u, out=u)
