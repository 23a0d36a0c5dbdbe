"""gradcheck.py — MiniTorch's grad_check for the engine's Functions.

    grad_check(ctx, backend, f, xs, eps)

`f(ctx, *tensors) -> tensor` builds a graph from engine Functions. The engine's gradient
(backward with an upstream gradient W: random weights, so that a gradient sent to the wrong
element cannot pass as it would with MiniTorch's all-ones; W = 1 through the implicit gradient
when the output has shape (1,)) is compared with central differences of the same engine
function:

    dL/dx_i ~ sum_j W_j (f_j(x + e_i h) - f_j(x - e_i h)) / (x_i^+ - x_i^-)

taken in float64 from the float32 outputs (differences first, elementwise, so that outputs not
depending on x_i cancel exactly), with x_i^+/- the float32 values actually fed to the engine.
Tolerance as MiniTorch: rtol = atol = 1e-2.

Step size. MiniTorch uses 1e-6 on float64 tensors. Here f runs in float32: a step h leaves a
rounding error of about u*|f|/h in the quotient (u = 2^-24 = 6e-8) and a truncation error of
about h^2 |f'''| / 6. The balance for smooth f is h ~ u^(1/3) * scale ~ 4e-3 * scale, so:
  eps_elem(x, 1e-3)    h = 1e-3 * max(1, |x_i|): element-wise functions, whose output j = i
                       depends on x_i alone (truncation relative error ~ (h/|x|)^2 / 6 < 2e-7
                       away from poles; rounding ~ 6e-8 * |f/(x f')| / 1e-3)
  eps_tensor(x, 1e-1)  h = 0.1 * max(1, max |x|): functions linear in x (sum, mean, matmul,
                       permute, view, add...): no truncation error at all, and a large step
                       drowns the rounding of outputs that add many terms of size max|x|
                       (a float32 sum of 81 values of 100 is exact only to ~0.02 in the
                       worst case; divided by 2h = 20 that is 1e-3, inside atol).
Domains stay away from poles and kinks by several steps (see the tests).
"""

import numpy as np

RTOL = ATOL = 1e-2
MAX_CHECKS = 12  # indices checked per input (all of them for small inputs)


def eps_elem(x, delta=1e-3):
    return delta * np.maximum(1.0, np.abs(x.astype(np.float64)))


def eps_tensor(x, delta=1e-1):
    m = float(np.max(np.abs(x))) if x.size else 1.0
    return np.full(x.shape, delta * max(1.0, m))


def _upstream(rng, shape):
    mag = rng.uniform(0.5, 1.5, shape)
    return np.where(rng.random(shape) < 0.5, -mag, mag).astype(np.float32)


def engine_grads(ctx, backend, f, xs, layouts=None, w=None, seed=0):
    """Leaves from xs (requires_grad), out = f(...), backward; returns (out, W, grads)."""
    import helpers as H
    layouts = layouts or [H.Layout()] * len(xs)
    leaves = []
    for x, lay in zip(xs, layouts):
        t, _ = H.make(ctx, x, backend, lay)
        leaves.append(t.requires_grad_(True))
    out = f(ctx, *leaves)
    if out.shape == (1,) and w is None:
        W = np.ones((1,), np.float32)
        out.backward()
    else:
        W = _upstream(np.random.default_rng(seed), out.shape) if w is None else w
        # the upstream gradient itself non-contiguous for outputs of even rank
        lay = H.Layout("permuted", perm=tuple(reversed(range(W.ndim)))) \
            if W.ndim % 2 == 0 else H.Layout()
        out.backward(H.make(ctx, W, backend, lay)[0])
    grads = []
    for t, x in zip(leaves, xs):
        g = t.grad
        assert g is not None, f"leaf of shape {x.shape} got no .grad after backward"
        assert g.shape == x.shape, f"grad shape {g.shape} != leaf shape {x.shape}"
        grads.append(g.numpy())
    return out, W, grads


def central_difference(ctx, backend, f, xs, k, idx, h_arr, W):
    """Central difference of sum(W * f(xs)) w.r.t. xs[k][idx], in float64."""
    xp, xm = [x.copy() for x in xs], [x.copy() for x in xs]
    xp[k][idx] = np.float32(np.float64(xs[k][idx]) + h_arr[idx])
    xm[k][idx] = np.float32(np.float64(xs[k][idx]) - h_arr[idx])
    step = np.float64(xp[k][idx]) - np.float64(xm[k][idx])
    fp = f(ctx, *[ctx.tensor(x, backend) for x in xp]).numpy().astype(np.float64)
    fm = f(ctx, *[ctx.tensor(x, backend) for x in xm]).numpy().astype(np.float64)
    d = fp - fm
    d[fp == fm] = 0.0  # equal infinities
    return float(np.sum(W.astype(np.float64) * d) / step)


def grad_check(ctx, backend, f, xs, eps=None, layouts=None, seed=0, what="grad"):
    xs = [np.asarray(x, dtype=np.float32) for x in xs]
    eps = eps or [eps_elem] * len(xs)
    _, W, grads = engine_grads(ctx, backend, f, xs, layouts, seed=seed)
    rng = np.random.default_rng(seed + 1)
    for k, (x, g) in enumerate(zip(xs, grads)):
        h = eps[k](x) if callable(eps[k]) else eps[k]
        n = x.size
        picks = range(n) if n <= MAX_CHECKS else rng.choice(n, MAX_CHECKS, replace=False)
        for flat in picks:
            idx = np.unravel_index(int(flat), x.shape)
            num = central_difference(ctx, backend, f, xs, k, idx, h, W)
            got = float(g[idx])
            assert abs(got - num) <= ATOL + RTOL * abs(num), (
                f"{what}: d/d input{k}{tuple(int(i) for i in idx)}: engine {got!r} central "
                f"difference {num!r} (x = {float(x[idx])!r}, h = {float(h[idx]):.3g})")
    return grads
