"""safetensors read and write with torch alone (the safetensors package is not in Debian's apt).

Format: 8-byte little-endian header length, a JSON header {name: {dtype, shape, data_offsets}}, the data.
"""

import json
import os
import struct

import torch

DTYPES = {"F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}
NAMES = {v: k for k, v in DTYPES.items()}


def to_bytes(t):
    t = t.detach().contiguous().cpu()
    # numpy has no bfloat16: go through the raw 16-bit pattern
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().tobytes()
    return t.numpy().tobytes()


def save(tensors, path):
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        t = tensors[name]
        b = to_bytes(t)
        header[name] = {"dtype": NAMES[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        a, b = e["data_offsets"]
        raw = bytearray(data[8 + n + a : 8 + n + b])
        dtype = DTYPES[e["dtype"]]
        if dtype == torch.bfloat16:
            t = torch.frombuffer(raw, dtype=torch.int16).view(torch.bfloat16) if raw else torch.empty(0, dtype=dtype)
        else:
            t = torch.frombuffer(raw, dtype=dtype) if raw else torch.empty(0, dtype=dtype)
        out[name] = t.reshape(e["shape"])
    return out


def load_folder(folder):
    """a model folder's weights: diffusion_pytorch_model.safetensors or its shards with the index"""
    index = os.path.join(folder, "diffusion_pytorch_model.safetensors.index.json")
    if os.path.exists(index):
        with open(index) as f:
            files = sorted(set(json.load(f)["weight_map"].values()))
    else:
        files = ["diffusion_pytorch_model.safetensors"]
    out = {}
    for name in files:
        out.update(load(os.path.join(folder, name)))
    return out


def save_folder(tensors, folder, shards=1):
    """one file, or `shards` files plus the index (diffusers' names)"""
    if shards == 1:
        save(tensors, os.path.join(folder, "diffusion_pytorch_model.safetensors"))
        return
    names = sorted(tensors)
    per = -(-len(names) // shards)
    weight_map, total = {}, 0
    for i in range(shards):
        file = f"diffusion_pytorch_model-{i + 1:05d}-of-{shards:05d}.safetensors"
        part = {n: tensors[n] for n in names[i * per : (i + 1) * per]}
        save(part, os.path.join(folder, file))
        for n, t in part.items():
            weight_map[n] = file
            total += t.numel() * t.element_size()
    with open(os.path.join(folder, "diffusion_pytorch_model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)
