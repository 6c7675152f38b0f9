"""Python that reads as Python: every public name (opengpa.__all__) and each public method and property of its
classes has a docstring, type hints on every parameter and its return, and explicit parameters (no **kwargs
hiding what a call accepts); the package ships py.typed so that type checkers read those hints."""

import dataclasses
import inspect
import pathlib
import typing

import opengpa
import opengpa.op_attribution
import opengpa.plots
import opengpa.torch_ops
import opengpa.torch_trace


# The modules docs/python.md documents by name beside the package's own (opengpa.kernels.load_profile,
# opengpa.plots.roofline, opengpa.torch_ops.TorchOps, ...): their public functions and classes too.
MODULES = (opengpa.counters, opengpa.kernels, opengpa.monitor, opengpa.op_attribution, opengpa.plots,
           opengpa.profiling, opengpa.results, opengpa.torch_ops, opengpa.torch_trace, opengpa.doctor, opengpa.compare)


def public_names():
    """(qualified name, value) of each name in __all__ and each public function or class the modules define."""
    for name in opengpa.__all__:
        yield name, getattr(opengpa, name)
    for module in MODULES:
        for name, value in vars(module).items():
            if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__ and \
                    (inspect.isfunction(value) or inspect.isclass(value)):
                yield f"{module.__name__}.{name}", value


def public_functions():
    """(qualified name, function) of each public name and of its classes' public methods and properties."""
    for name, value in public_names():
        if not inspect.isclass(value):
            yield name, value
            continue
        for klass in value.__mro__:
            if not klass.__module__.startswith("opengpa"):
                continue
            for attribute, member in vars(klass).items():
                if attribute.startswith("_") and attribute != "__init__":
                    continue
                if attribute == "__init__" and dataclasses.is_dataclass(value):
                    continue  # written by dataclasses from the annotated fields
                if isinstance(member, property):
                    member = member.fget
                elif isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if inspect.isfunction(member):
                    yield f"{name}.{attribute}", member


def test_every_public_name_and_method_has_a_docstring():
    missing = [name for name, value in public_names() if not (value.__doc__ or "").strip()]
    missing += [name for name, function in public_functions()
                if not name.endswith(".__init__") and not (function.__doc__ or "").strip()]
    assert not missing, f"no docstring: {', '.join(missing)}"


def test_every_public_function_has_type_hints_and_explicit_parameters():
    unhinted, hidden = [], []
    for name, function in public_functions():
        signature = inspect.signature(function)
        for parameter in list(signature.parameters.values()):
            if parameter.name in ("self", "cls"):
                continue
            if parameter.kind == parameter.VAR_KEYWORD:
                hidden.append(f"{name}(**{parameter.name})")
            if parameter.annotation is parameter.empty:
                unhinted.append(f"{name}({parameter.name})")
        if signature.return_annotation is signature.empty:
            unhinted.append(f"{name} -> ?")
        typing.get_type_hints(function)  # every hint names something that exists
    assert not hidden, f"parameters hidden behind **kwargs: {', '.join(hidden)}"
    assert not unhinted, f"no type hint: {', '.join(unhinted)}"


def test_list_counters_describe_and_plan_passes_name_their_parameters():
    for function in (opengpa.list_counters, opengpa.describe, opengpa.plan_passes, opengpa.open_context):
        parameters = inspect.signature(function).parameters
        assert {"chip", "api", "device_id", "hardware", "live"} <= set(parameters), function.__name__


def test_the_package_ships_a_py_typed_marker():
    package = pathlib.Path(opengpa.__file__).parent
    assert (package / "py.typed").is_file()
