"""PyTorch attribution: every aten operator a step runs becomes an opengpa region named after the module
and the operator ("encoder.0.linear/aten.addmm.default"), so a profile reads as a table of ops.

Operators are seen through a TorchDispatchMode (the level at which aten ops reach their CUDA kernels) and
modules through PyTorch's global forward hooks; each op's GPU work is one GPA sample, i.e. one CUPTI range
around its launches. View and metadata ops launch nothing and are left out.

    model = ...
    with opengpa.profile(["GPUTime", "FetchSize", "WriteSize"]) as p:
        p.run(lambda: model(x), ...)  # inside op_regions() below
    p.results.aggregate()                  # one row per module/op

Samples do not nest and a pass holds at most max_samples_per_pass samples (256 unless opengpa.profile
asks for more), so profile a step of at most that many ops. In a per-kernel profile
(opengpa.profile(..., per_kernel=True)) the regions label each op's kernel rows instead, with no such limit:
results.aggregate() is then the per-op table.
"""

import contextlib

from .profiling import region


def _torch():
    try:
        import torch
        from torch.utils._python_dispatch import TorchDispatchMode
    except ImportError:
        raise ImportError("opengpa.torch_ops needs PyTorch") from None
    return torch, TorchDispatchMode


@contextlib.contextmanager
def op_regions(model=None, skip_views=True):
    """Within the block, each aten op on CUDA tensors runs inside opengpa.region("<module>/<op>").

    `model`: its submodules are named by their path in it (model.named_modules()); other modules by
    their class name. Without a model, ops are named by the op alone when no module is running."""
    torch, TorchDispatchMode = _torch()
    names = {id(module): name or type(module).__name__ for name, module in model.named_modules()} if model else {}
    stack = []

    def before(module, args):
        stack.append(names.get(id(module), type(module).__name__))

    def after(module, args, output):
        if stack:
            stack.pop()

    class _OpRegions(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if skip_views and (getattr(func, "is_view", False) or func.__name__ in _NO_WORK):
                return func(*args, **kwargs)
            name = f"{stack[-1]}/{func}" if stack else str(func)
            with region(name):
                return func(*args, **kwargs)

    from torch.nn.modules import module as module_hooks
    pre = module_hooks.register_module_forward_pre_hook(before)
    post = module_hooks.register_module_forward_hook(after)
    try:
        with _OpRegions():
            yield
    finally:
        pre.remove()
        post.remove()


# Ops that only describe tensors (no kernel): recording them would add empty samples.
_NO_WORK = {"detach.default", "alias.default", "lift_fresh.default",
            "empty.memory_format", "empty_strided.default", "size.default", "stride.default"}
