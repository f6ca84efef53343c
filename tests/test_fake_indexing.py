"""Offline, Inductor traces on fake ``cuda`` tensors; a torch built without CUDA cannot index them itself."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode  # noqa: E402

from irscope.compile import fake_indexing  # noqa: E402

# Hugging Face's rotary embedding indexes ``self.inv_freq[None, :, None]``; the others are what Python indexing
# means elsewhere in such models.
INDICES = [(None, slice(None), None), 1, -1, slice(1, 3), (Ellipsis, None), (slice(None), 0),
           (slice(None, None, 2), -1)]


@pytest.fixture
def installed():
    saved = torch.Tensor.__getitem__, torch.Tensor.__setitem__
    fake_indexing.install(torch)
    yield
    torch.Tensor.__getitem__, torch.Tensor.__setitem__ = saved


def _fake_cuda(mode, *shape, dtype=None):
    return FakeTensor(mode, torch.empty(*shape, device="meta", dtype=dtype), torch.device("cuda", 0))


@pytest.mark.skipif(torch._C._has_cuda, reason="a CUDA build of torch indexes fake cuda tensors itself")
def test_torch_cannot_index_a_fake_cuda_tensor_without_cuda() -> None:
    with FakeTensorMode() as mode, pytest.raises(RuntimeError, match="not linked with support for cuda"):
        _fake_cuda(mode, 8, 4)[None, :, None]


def test_indexing_a_fake_cuda_tensor_gives_what_torch_gives_a_real_one(installed) -> None:
    real = torch.arange(32.0).reshape(8, 4)
    want = [tuple(real[i].shape) for i in INDICES] + [tuple(real[torch.tensor([0, 1, 2]), 1:].shape)]
    with FakeTensorMode() as mode:
        fake = _fake_cuda(mode, 8, 4)
        rows = _fake_cuda(mode, 3, dtype=torch.long)
        got = [tuple(fake[i].shape) for i in INDICES] + [tuple(fake[rows, 1:].shape)]
        devices = {str(fake[i].device) for i in INDICES}
        fake[:, 0] = 1.0
        fake[rows] = 2.0
    assert got == want
    assert devices == {"cuda:0"}
    assert tuple(real[None, :, None].shape) == (1, 8, 1, 4)  # real tensors keep torch's own indexing
