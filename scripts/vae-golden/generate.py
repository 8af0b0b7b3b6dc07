"""Writes fixtures/cogvideox-vae-extra/<case>/: golden cases of diffusers' AutoencoderKLCogVideoX.decode.

Run by hand (torch and a diffusers source; see docs/vae.md, "reproduce"):

    DIFFUSERS_SRC=/tmp/diffusers/src /usr/bin/python3 scripts/vae-golden/generate.py [case ...]

Each case: random decoder weights (rounded to the stored dtype, so F16 / BF16 weights are exact), random
latents in the transformer's layout (B, F, C, H, W), and the reference decode in float64 on CPU, as the
ConsisID pipeline calls it: vae.decode(latents.permute(0, 2, 1, 3, 4) / scaling_factor).sample (with
vae.enable_tiling(...) first where the case tiles). The same decode in float32 is measured against it
(case.json: torch_float32_error).
"""

import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diffusers_vae import cogvideox_vae_class  # noqa: E402
import safetensors_io  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "fixtures", "cogvideox-vae-extra")

FOUR_BLOCKS = {"block_out_channels": [8, 8, 16, 16], "layers_per_block": 1, "norm_num_groups": 4}

CASES = {
    "frames-7": {
        "what": "4 small blocks (8, 8, 16, 16 channels), 7 latent frames (batches of 3, 2, 2: the cache carried twice), float32 weights",
        "config": FOUR_BLOCKS,
        "latents": [1, 7, 16, 4, 6],
        "dtype": torch.float32,
    },
    "frames-4-batch-2": {
        "what": "batch 2, 4 latent frames (an even count: batches of 2, 2), odd non-square 3 x 5 latents, float16 weights",
        "config": FOUR_BLOCKS,
        "latents": [2, 4, 16, 3, 5],
        "dtype": torch.float16,
    },
    "frames-1": {
        "what": "1 latent frame (one batch, no time upsampling: 1 video frame), float16 weights",
        "config": FOUR_BLOCKS,
        "latents": [1, 1, 16, 3, 3],
        "dtype": torch.float16,
    },
    "ratio-2-bf16-shards": {
        "what": "3 blocks of 16, 24, 32 channels, 2 layers per block, 8 groups, 8 latent channels, temporal_compression_ratio 2, norm_eps 1e-5 (the decoder's spatial norms keep 1e-6), scaling_factor 0.7, bfloat16 weights in 3 shards, 5 x 7 latents",
        "config": {
            "block_out_channels": [16, 24, 32],
            "down_block_types": ["CogVideoXDownBlock3D"] * 3,
            "up_block_types": ["CogVideoXUpBlock3D"] * 3,
            "layers_per_block": 2,
            "norm_num_groups": 8,
            "latent_channels": 8,
            "temporal_compression_ratio": 2,
            "norm_eps": 1e-5,
            "scaling_factor": 0.7,
        },
        "latents": [1, 5, 8, 5, 7],
        "dtype": torch.bfloat16,
        "shards": 3,
    },
    "ratio-8-groups-32": {
        "what": "4 blocks of 32 channels, norm_num_groups 32 (one channel per group), temporal_compression_ratio 8 (every upsampling doubles time), 3 latent frames, float16 weights",
        "config": {
            "block_out_channels": [32, 32, 32, 32],
            "layers_per_block": 1,
            "norm_num_groups": 32,
            "temporal_compression_ratio": 8,
        },
        "latents": [1, 3, 16, 3, 4],
        "dtype": torch.float16,
    },
    "tiled": {
        "what": "tiled_decode: sample size 96 x 80, so tiles of 6 x 5 latents every 5 x 4, blended over 8 x 8 pixels; 8 x 7 latents make 2 x 2 tiles, each with 4 latent frames (2 batches, its own caches); float32 weights",
        "config": {**FOUR_BLOCKS, "sample_height": 96, "sample_width": 80},
        "latents": [1, 4, 16, 8, 7],
        "dtype": torch.float32,
        "tiling": {"tile_sample_min_height": 48, "tile_sample_min_width": 40},
    },
    "tiled-uneven": {
        "what": "tiled_decode whose tile stride (3 x 4 latents = 24 x 32 pixels) is not what each tile keeps (27 x 32): sample size 64 x 80, 7 x 9 latents in 3 x 3 tiles, the last of 1 latent; the reference's output is 62 pixels high, not 56; 1 latent frame, float16 weights",
        "config": {**FOUR_BLOCKS, "sample_height": 64, "sample_width": 80},
        "latents": [1, 1, 16, 7, 9],
        "dtype": torch.float16,
        "tiling": {"tile_sample_min_height": 32, "tile_sample_min_width": 40},
    },
    "ratio-1": {
        "what": "temporal_compression_ratio 1: no upsampling doubles time (5 latent frames make 5 frames, batches of 3 and 2), 3 x 4 latents, float16 weights",
        "config": {**FOUR_BLOCKS, "temporal_compression_ratio": 1},
        "latents": [1, 5, 16, 3, 4],
        "dtype": torch.float16,
    },
}

DTYPE_NAMES = {torch.float32: "F32", torch.float16: "F16", torch.bfloat16: "BF16"}


def random_decoder_weights(model, dtype, gen):
    """decoder parameters as the project's random-vae.ts draws them, rounded to the stored dtype"""
    out = {}
    for name, p in model.state_dict().items():
        if not name.startswith("decoder."):
            continue
        u = torch.rand(p.shape, generator=gen, dtype=torch.float64) * 2 - 1
        if name.endswith("norm_layer.weight"):
            v = 1 + 0.1 * u
        elif p.dim() == 1:
            v = 0.05 * u
        else:
            v = u / math.sqrt(p[0].numel())
        out[name] = v.to(torch.float32).to(dtype)
    return out


def decode(vae, latents, dtype):
    vae = vae.to(dtype)
    z = latents.to(dtype).permute(0, 2, 1, 3, 4) / vae.config.scaling_factor
    with torch.no_grad():
        return vae.decode(z).sample


def write_case(cls, loaded_by, name, spec, seed):
    folder = os.path.join(OUT, name)
    os.makedirs(folder, exist_ok=True)
    vae = cls(**spec["config"])
    config = {k: (list(v) if isinstance(v, tuple) else v) for k, v in vars(vae.config).items()}
    config = {"_class_name": "AutoencoderKLCogVideoX", "_diffusers_version": sys.modules["diffusers"].__version__, **config}
    gen = torch.Generator().manual_seed(seed)
    weights = random_decoder_weights(vae, spec["dtype"], gen)
    missing = [k for k in vae.state_dict() if k.startswith("decoder.") and k not in weights]
    assert not missing, missing
    vae.load_state_dict({k: v.to(torch.float32) for k, v in weights.items()}, strict=False)
    latents = torch.randn(spec["latents"], generator=gen, dtype=torch.float64).to(torch.float32)
    if spec.get("tiling"):
        vae.enable_tiling(**spec["tiling"])
    expected = decode(vae, latents, torch.float64)
    single = decode(vae, latents, torch.float32).to(torch.float64)
    err = ((single - expected).abs().max() / expected.abs().max()).item()

    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    safetensors_io.save_folder(weights, folder, spec.get("shards", 1))
    safetensors_io.save({"latents": latents}, os.path.join(folder, "inputs.safetensors"))
    safetensors_io.save({"sample": expected.to(torch.float32)}, os.path.join(folder, "expected.safetensors"))
    case = {
        "what": spec["what"],
        "reference": f"AutoencoderKLCogVideoX.decode, float64, CPU, torch {torch.__version__}, {loaded_by}",
        "call": "vae.decode(latents.permute(0, 2, 1, 3, 4) / config.scaling_factor).sample",
        "tiling": spec.get("tiling"),
        "weights_dtype": DTYPE_NAMES[spec["dtype"]],
        "weights": "decoder parameters only (the encoder's are not stored)",
        "inputs": {"latents": spec["latents"]},
        "expected": {"sample": list(expected.shape), "max_abs": expected.abs().max().item()},
        "torch_float32_error": err,
        "tolerance": {"max_abs_error_relative_to_max_abs_expected": 1e-4},
    }
    with open(os.path.join(folder, "case.json"), "w") as f:
        json.dump(case, f, indent=2)
    print(f"{name}: sample {list(expected.shape)}, torch float32 {err:.2e}", flush=True)


def main():
    cls, loaded_by = cogvideox_vae_class()
    print(loaded_by, flush=True)
    torch.set_num_threads(max(1, int(os.environ.get("THREADS", "1"))))
    names = sys.argv[1:] or list(CASES)
    for name in names:
        # the seed is the case's place in CASES: new cases go at the end, so the others stay as they are
        write_case(cls, loaded_by, name, CASES[name], seed=1000 + list(CASES).index(name))


if __name__ == "__main__":
    main()
