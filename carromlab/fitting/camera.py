"""Camera calibration: the map from image pixels to board metres.

Image coordinates follow the usual convention of tracking software (trackpy, OpenCV):
``u`` to the right, ``v`` down, in pixels. Board coordinates are carromlab's: metres, origin
at the centre of the playing surface, ``x`` to the right and ``y`` up as seen from above,
the first player ("south") at ``y < 0``. A general camera is a plane projective map (a
homography), fixed by the four corners of the playing surface; an ideal overhead camera is
a scale and an origin, fixed by a known length.

References
----------
.. [1] R. Hartley and A. Zisserman, *Multiple View Geometry in Computer Vision*, 2nd ed.,
   Cambridge University Press, 2004, section 4.1 (direct linear transformation),
   doi:10.1017/CBO9780511811685.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._validation import check_array, check_real, check_type

__all__ = ["BoardCalibration"]

FloatArray = NDArray[np.float64]


def _homography(src: FloatArray, dst: FloatArray) -> FloatArray:
    """The 3x3 projective map sending the points ``src`` (n, 2) to ``dst`` (n, 2), n >= 4,
    by the normalised direct linear transformation (Hartley & Zisserman, section 4.4)."""

    def normaliser(p: FloatArray) -> FloatArray:
        # centre the points and scale their mean distance to sqrt(2): conditions the SVD
        c = p.mean(axis=0)
        d = np.mean(np.hypot(*(p - c).T))
        s = math.sqrt(2.0) / d
        return np.array([[s, 0.0, -s * c[0]], [0.0, s, -s * c[1]], [0.0, 0.0, 1.0]])

    Ts, Td = normaliser(src), normaliser(dst)
    hs = np.c_[src, np.ones(len(src))] @ Ts.T
    hd = np.c_[dst, np.ones(len(dst))] @ Td.T
    rows = []
    for (x, y, w), (X, Y, W) in zip(hs, hd):
        rows.append([0.0, 0.0, 0.0, -W * x, -W * y, -W * w, Y * x, Y * y, Y * w])
        rows.append([W * x, W * y, W * w, 0.0, 0.0, 0.0, -X * x, -X * y, -X * w])
    _, sv, vt = np.linalg.svd(np.asarray(rows))
    H = np.linalg.inv(Td) @ vt[-1].reshape(3, 3) @ Ts
    return H / H[2, 2]


@dataclass(frozen=True, eq=False)
class BoardCalibration:
    """A map from image pixels (u right, v down) to board metres (x right, y up).

    Build one with :meth:`from_corners` (any camera looking at the board: a homography),
    :meth:`from_scale` or :meth:`from_length` (an ideal overhead camera), or
    :meth:`metres` (tracks already in metres).

    Parameters
    ----------
    homography : array_like, shape (3, 3)
        Projective map with ``(x, y, 1) ~ H (u, v, 1)``; normalised so that ``H[2, 2] = 1``.
    spec : dict
        The constructor inputs, written to track sidecar files by :meth:`to_dict`.

    Examples
    --------
    An overhead camera with 1000 px per metre and the board centre at pixel (960, 540):

    >>> cal = BoardCalibration.from_scale(1000.0, origin_px=(960.0, 540.0))
    >>> x, y = cal.to_board([960.0, 1330.0], [540.0, 170.0])
    >>> x.round(6).tolist(), y.round(6).tolist()
    ([0.0, 0.37], [0.0, 0.37])
    """

    homography: FloatArray
    spec: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        H = check_array("homography", self.homography, shape=(3, 3))
        if abs(H[2, 2]) < 1e-300 or abs(np.linalg.det(H)) < 1e-300:
            raise ValueError(
                f"The 'homography' parameter must be an invertible 3x3 matrix with H[2, 2] != 0. Got {H.tolist()!r} instead."
            )
        H = H / H[2, 2]
        H.setflags(write=False)
        object.__setattr__(self, "homography", H)
        object.__setattr__(self, "spec", dict(self.spec))

    # -- constructors -----------------------------------------------------------------
    @classmethod
    def from_corners(cls, corners_px: ArrayLike, board_size: float) -> BoardCalibration:
        """Calibration from the pixel positions of the four corners of the playing surface.

        Parameters
        ----------
        corners_px : array_like, shape (4, 2)
            Pixel (u, v) of the corners in the order south-west, south-east, north-east,
            north-west, i.e. board points (-h, -h), (h, -h), (h, h), (-h, h) with
            h = board_size / 2.
        board_size : float
            Side of the square playing surface, m, > 0 (0.74 for an ICF board).

        Returns
        -------
        BoardCalibration
            The exact homography through the four corners (perspective is allowed).

        Raises
        ------
        ValueError
            If the corners are not finite, or three of them are collinear.

        Examples
        --------
        >>> cal = BoardCalibration.from_corners([[590, 910], [1330, 910], [1330, 170], [590, 170]], 0.74)
        >>> [round(float(c), 6) + 0.0 for c in cal.to_board(960.0, 540.0)]
        [0.0, 0.0]
        """
        px = check_array("corners_px", corners_px, shape=(4, 2), unit="px")
        size = check_real("board_size", board_size, low=0.0, low_open=True, unit="m")
        for k in range(4):
            a, b, c = px[k], px[(k + 1) % 4], px[(k + 2) % 4]
            area = abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))
            if area < 1e-6 * np.ptp(px) ** 2:
                raise ValueError(
                    "The 'corners_px' parameter must hold four corners of which no three are collinear. "
                    f"Got {px.tolist()!r} instead."
                )
        h = size / 2.0
        board = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
        spec = {"corners_px": px.tolist(), "board_size": size}
        return cls(_homography(px, board), spec)

    @classmethod
    def from_scale(cls, px_per_m: float, *, origin_px: ArrayLike) -> BoardCalibration:
        """Ideal overhead camera: ``x = (u - u0) / s``, ``y = -(v - v0) / s``.

        Parameters
        ----------
        px_per_m : float
            Image scale s, pixels per metre, > 0.
        origin_px : array_like, shape (2,)
            Pixel (u0, v0) of the centre of the playing surface.

        Returns
        -------
        BoardCalibration

        Examples
        --------
        >>> round(BoardCalibration.from_scale(500.0, origin_px=(0.0, 0.0)).px_per_m, 9)
        500.0
        """
        s = check_real("px_per_m", px_per_m, low=0.0, low_open=True, unit="px/m")
        u0, v0 = check_array("origin_px", origin_px, shape=(2,), unit="px")
        H = np.array([[1.0 / s, 0.0, -u0 / s], [0.0, -1.0 / s, v0 / s], [0.0, 0.0, 1.0]])
        return cls(H, {"px_per_m": s, "origin_px": [float(u0), float(v0)]})

    @classmethod
    def from_length(
        cls, p1_px: ArrayLike, p2_px: ArrayLike, length: float, *, origin_px: ArrayLike
    ) -> BoardCalibration:
        """Ideal overhead camera scaled by a known length seen in the image.

        Parameters
        ----------
        p1_px, p2_px : array_like, shape (2,)
            Pixel (u, v) of the two ends of a known length (e.g. a baseline, 0.47 m on an
            ICF board).
        length : float
            The true length, m, > 0.
        origin_px : array_like, shape (2,)
            Pixel (u0, v0) of the centre of the playing surface.

        Returns
        -------
        BoardCalibration

        Examples
        --------
        >>> round(BoardCalibration.from_length((100, 50), (570, 50), 0.47, origin_px=(335, 300)).px_per_m, 9)
        1000.0
        """
        a = check_array("p1_px", p1_px, shape=(2,), unit="px")
        b = check_array("p2_px", p2_px, shape=(2,), unit="px")
        L = check_real("length", length, low=0.0, low_open=True, unit="m")
        d = float(np.hypot(*(b - a)))
        if d == 0.0:
            raise ValueError(
                f"The 'p2_px' parameter must differ from 'p1_px' (a length of 0 px). Got {b.tolist()!r} instead."
            )
        return cls.from_scale(d / L, origin_px=origin_px)

    @classmethod
    def metres(cls) -> BoardCalibration:
        """The identity: tracks are already in board metres.

        Examples
        --------
        >>> round(BoardCalibration.metres().px_per_m, 9)
        1.0
        """
        return cls(np.eye(3), {"units": "m"})

    @classmethod
    def from_dict(cls, spec: dict[str, Any]) -> BoardCalibration:
        """Rebuild a calibration from :meth:`to_dict` output (as stored in a sidecar file).

        Parameters
        ----------
        spec : dict
            One of ``{"corners_px", "board_size"}``, ``{"px_per_m", "origin_px"}``,
            ``{"p1_px", "p2_px", "length", "origin_px"}``, ``{"homography"}`` or
            ``{"units": "m"}``.

        Returns
        -------
        BoardCalibration

        Raises
        ------
        TypeError
            If ``spec`` is not a dict.
        ValueError
            If it holds none of those sets of keys, or a value is out of range.

        Examples
        --------
        >>> round(BoardCalibration.from_dict({"px_per_m": 800.0, "origin_px": [400, 300]}).px_per_m, 9)
        800.0
        """
        keys = set(check_type("calibration", spec, dict, hint="e.g. {'px_per_m': 800.0, 'origin_px': [400, 300]}"))
        if {"corners_px", "board_size"} <= keys:
            return cls.from_corners(spec["corners_px"], spec["board_size"])
        if {"p1_px", "p2_px", "length", "origin_px"} <= keys:
            return cls.from_length(spec["p1_px"], spec["p2_px"], spec["length"], origin_px=spec["origin_px"])
        if {"px_per_m", "origin_px"} <= keys:
            return cls.from_scale(spec["px_per_m"], origin_px=spec["origin_px"])
        if "homography" in keys:
            return cls(np.asarray(spec["homography"], dtype=float), {"homography": spec["homography"]})
        if spec.get("units") == "m":
            return cls.metres()
        raise ValueError(
            "The 'calibration' parameter must hold corners_px and board_size, px_per_m and origin_px, "
            "p1_px, p2_px, length and origin_px, a homography, or units = 'm'. "
            f"Got keys {sorted(keys)} instead."
        )

    def to_dict(self) -> dict[str, Any]:
        """The constructor inputs (JSON-friendly), or the homography for a direct one."""
        return dict(self.spec) if self.spec else {"homography": self.homography.tolist()}

    # -- mapping -------------------------------------------------------------------
    def to_board(self, u: ArrayLike, v: ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Board coordinates (m) of pixels (u, v).

        Parameters
        ----------
        u, v : array_like
            Pixel coordinates (u right, v down).

        Returns
        -------
        x, y : ndarray
            Board coordinates, m.

        Examples
        --------
        >>> cal = BoardCalibration.from_scale(1000.0, origin_px=(0.0, 0.0))
        >>> [float(c) for c in cal.to_board(370.0, -370.0)]
        [0.37, 0.37]
        """
        return self._apply(self.homography, u, v)

    def to_pixels(self, x: ArrayLike, y: ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Pixel coordinates (u, v) of board points (x, y) in m (the inverse of :meth:`to_board`).

        Examples
        --------
        >>> cal = BoardCalibration.from_scale(1000.0, origin_px=(960.0, 540.0))
        >>> [float(c) for c in cal.to_pixels(0.0, 0.1)]
        [960.0, 440.0]
        """
        return self._apply(np.linalg.inv(self.homography), x, y)

    @staticmethod
    def _apply(H: FloatArray, a: ArrayLike, b: ArrayLike) -> tuple[FloatArray, FloatArray]:
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        w = H[2, 0] * a + H[2, 1] * b + H[2, 2]
        return (H[0, 0] * a + H[0, 1] * b + H[0, 2]) / w, (H[1, 0] * a + H[1, 1] * b + H[1, 2]) / w

    def _local_jacobian(self) -> FloatArray:
        """d(x, y)/d(u, v) at the pixel of the board centre, m/px (exact: the board centre
        is x = y = 0, so d(x, y)/d(u, v) = H[:2, :2] / w)."""
        H = self.homography
        u0, v0 = self.to_pixels(0.0, 0.0)
        return H[:2, :2] / (H[2, 0] * u0 + H[2, 1] * v0 + H[2, 2])

    @property
    def px_per_m(self) -> float:
        """Image scale at the board centre, pixels per metre (geometric mean of the two
        principal scales of the local map)."""
        return float(1.0 / math.sqrt(abs(np.linalg.det(self._local_jacobian()))))

    @property
    def angle_sign(self) -> int:
        """+1 if the map keeps the sense of rotation, -1 if it mirrors it (an image with v
        down seen as a board with y up: a counter-clockwise angle in the image is clockwise
        on the board)."""
        return 1 if np.linalg.det(self._local_jacobian()) > 0 else -1
