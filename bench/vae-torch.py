"""diffusers' AutoencoderKLCogVideoX.decode on torch CPU, float32, driven by bench/vae-torch.ts.

    python3 bench/vae-torch.py --vae <folder> --latents <inputs.safetensors> --threads N --out <sample.safetensors>

Loads the VAE folder (config.json + safetensors, one file or shards; the class from an installed diffusers or
$DIFFUSERS_SRC, see scripts/vae-golden/diffusers_vae.py) and prints one JSON line {"ready": ...}. Then, for each
line "decode" on stdin, decodes the latents (B, F, C, H, W) as the ConsisID pipeline does,
vae.decode(latents.permute(0, 2, 1, 3, 4) / scaling_factor).sample, and prints one JSON line with the wall
seconds of each frame batch (a hook on vae.decoder, which diffusers calls once per batch) and of the decode;
the first decode's sample goes to --out. "quit" ends it.
"""

import argparse
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "vae-golden"))
from diffusers_vae import cogvideox_vae_class  # noqa: E402
import safetensors_io  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    for a in ["--vae", "--latents", "--threads", "--out"]:
        p.add_argument(a, required=True)
    args = p.parse_args()
    torch.set_num_threads(int(args.threads))
    torch.set_num_interop_threads(1)
    t0 = time.perf_counter()
    cls, loaded_by = cogvideox_vae_class()
    with open(os.path.join(args.vae, "config.json")) as f:
        config = {k: v for k, v in json.load(f).items() if not k.startswith("_")}
    vae = cls(**config)
    del vae.encoder  # decoding never reads it; the folder holds the decoder's weights only
    weights = safetensors_io.load_folder(args.vae)
    missing = [k for k in vae.state_dict() if k not in weights]
    if missing:
        raise SystemExit(f"{args.vae}: missing {len(missing)} decoder weights, e.g. {missing[:3]}")
    vae.load_state_dict({k: v.to(torch.float32) for k, v in weights.items() if k.startswith("decoder.")})
    vae = vae.to(torch.float32).eval()
    latents = safetensors_io.load(args.latents)["latents"].to(torch.float32)
    stamps = []
    vae.decoder.register_forward_pre_hook(lambda *_: stamps.append(time.perf_counter()))
    vae.decoder.register_forward_hook(lambda *_: stamps.append(time.perf_counter()))
    ready = {"ready": True, "load": time.perf_counter() - t0, "torch": torch.__version__, "diffusers": loaded_by}
    print(json.dumps({**ready, "threads": torch.get_num_threads()}), flush=True)
    first = True
    for line in sys.stdin:
        if line.strip() != "decode":
            break
        stamps.clear()
        t = time.perf_counter()
        with torch.no_grad():
            sample = vae.decode(latents.permute(0, 2, 1, 3, 4) / vae.config.scaling_factor).sample
        total = time.perf_counter() - t
        if first:
            safetensors_io.save({"sample": sample.contiguous()}, args.out)
            first = False
        batches = [stamps[i + 1] - stamps[i] for i in range(0, len(stamps) - 1, 2)]
        print(json.dumps({"batches": batches, "decode": total, "dims": list(sample.shape)}), flush=True)


if __name__ == "__main__":
    main()
