"""diffusers' AutoencoderKLCogVideoX class, from an installed diffusers or from a diffusers `src` folder.

The whole package is imported when it can be (it needs huggingface_hub, safetensors, regex, ... at import
time). Where it cannot (Debian's apt has torch but not huggingface_hub or safetensors), only the files
the class runs are loaded from the source folder, unchanged:

    models/autoencoders/autoencoder_kl_cogvideox.py, models/upsampling.py, models/downsampling.py,
    models/activations.py, models/modeling_outputs.py

with stubs for what they import that decoding never calls: ConfigMixin / register_to_config (the config
kept as attributes), ModelMixin (a plain nn.Module), FromOriginalModelMixin, apply_forward_hook
(identity), logging, deprecate, is_torch_version / is_torch_npu_available (False), BaseOutput,
RMSNorm, and from models/autoencoders/vae.py AutoencoderMixin, DecoderOutput,
DiagonalGaussianDistribution (vae.py itself imports the UNet blocks and attention).
"""

import dataclasses
import functools
import importlib.util
import inspect
import logging
import os
import re
import sys
import types


def _module(name, package=False, **attrs):
    m = types.ModuleType(name)
    if package:
        m.__path__ = []
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


def _load_file(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    sys.modules[name] = m
    spec.loader.exec_module(m)
    return m


def _register_to_config(init):
    @functools.wraps(init)
    def inner(self, *args, **kwargs):
        bound = inspect.signature(init).bind(self, *args, **kwargs)
        bound.apply_defaults()
        values = {k: v for k, v in bound.arguments.items() if k != "self"}
        object.__setattr__(self, "_internal_dict", types.SimpleNamespace(**values))
        init(self, *args, **kwargs)

    return inner


def _stubbed_class(models_dir):
    import torch

    for k in [k for k in sys.modules if k == "diffusers" or k.startswith("diffusers.")]:
        del sys.modules[k]

    class ConfigMixin:
        config_name = "config.json"

        @property
        def config(self):
            return self._internal_dict

    @dataclasses.dataclass
    class BaseOutput:
        pass

    @dataclasses.dataclass
    class DecoderOutput(BaseOutput):
        sample: torch.Tensor
        commit_loss: torch.Tensor | None = None

    class DiagonalGaussianDistribution:
        def __init__(self, parameters, deterministic=False):
            self.mean, self.logvar = torch.chunk(parameters, 2, dim=1)

    class RMSNorm(torch.nn.Module):
        def __init__(self, *args, **kwargs):
            raise NotImplementedError("RMSNorm stub: CogVideoX does not use it")

    with open(os.path.join(models_dir, "..", "__init__.py")) as f:
        version = re.search(r'__version__ = "([^"]+)"', f.read()).group(1)
    _module("diffusers", package=True, __version__=version)
    _module("diffusers.configuration_utils", ConfigMixin=ConfigMixin, register_to_config=_register_to_config)
    _module("diffusers.loaders", package=True)
    _module("diffusers.loaders.single_file_model", FromOriginalModelMixin=type("FromOriginalModelMixin", (), {}))
    log = _module("diffusers.utils.logging", get_logger=logging.getLogger)
    _module("diffusers.utils", package=True, logging=log, deprecate=lambda *a, **k: None, BaseOutput=BaseOutput)
    _module("diffusers.utils.accelerate_utils", apply_forward_hook=lambda f: f)
    no = lambda *a, **k: False  # noqa: E731
    _module("diffusers.utils.import_utils", is_torch_version=no, is_torch_npu_available=no)
    _module("diffusers.models", package=True)
    _module("diffusers.models.normalization", RMSNorm=RMSNorm)
    _module("diffusers.models.modeling_utils", ModelMixin=type("ModelMixin", (torch.nn.Module,), {}))
    _module("diffusers.models.autoencoders", package=True)
    _module(
        "diffusers.models.autoencoders.vae",
        AutoencoderMixin=type("AutoencoderMixin", (), {}),
        DecoderOutput=DecoderOutput,
        DiagonalGaussianDistribution=DiagonalGaussianDistribution,
    )
    for name in ["activations", "upsampling", "downsampling", "modeling_outputs"]:
        _load_file(f"diffusers.models.{name}", os.path.join(models_dir, f"{name}.py"))
    path = os.path.join(models_dir, "autoencoders", "autoencoder_kl_cogvideox.py")
    return _load_file("diffusers.models.autoencoders.autoencoder_kl_cogvideox", path).AutoencoderKLCogVideoX


def cogvideox_vae_class(src=None):
    """(AutoencoderKLCogVideoX, how it was loaded); src: a diffusers `src` folder (default $DIFFUSERS_SRC)"""
    src = src or os.environ.get("DIFFUSERS_SRC")
    if src:
        sys.path.insert(0, src)
    try:
        from diffusers import AutoencoderKLCogVideoX
        import diffusers

        return AutoencoderKLCogVideoX, f"diffusers {diffusers.__version__} ({os.path.dirname(diffusers.__file__)})"
    except ImportError as e:
        if not src:
            raise ImportError(f"diffusers does not import ({e}) and DIFFUSERS_SRC is not set") from e
        print(f"diffusers does not import whole ({e}): loading its CogVideoX VAE files with stubs", file=sys.stderr)
        cls = _stubbed_class(os.path.join(src, "diffusers", "models"))
        return cls, f"diffusers {sys.modules['diffusers'].__version__} source, autoencoder_kl_cogvideox.py with stubs"
