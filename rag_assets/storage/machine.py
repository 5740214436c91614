"""What a benchmark ran on, printed with its figures: CPU model, cores and the vector extensions that change
the speed of OCR, embeddings and the LLM (AVX2, AVX-512, AVX-512 BF16/VNNI, AMX). Figures from machines with
other flags are not comparable."""

from __future__ import annotations

import os
import platform
from pathlib import Path

FLAGS = ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "avx_vnni", "amx_tile", "amx_bf16", "amx_int8")


def cpu_flags(cpuinfo: str | None = None) -> tuple[str, set[str]]:
    """The CPU's model name and its flags (from /proc/cpuinfo; empty elsewhere)."""
    if cpuinfo is None:
        path = Path("/proc/cpuinfo")
        cpuinfo = path.read_text(errors="replace") if path.exists() else ""
    model, flags = platform.processor() or platform.machine(), set()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name" and value.strip():
            model = value.strip()
        elif key.strip() == "flags":
            flags = set(value.split())
    return model, flags


def machine_line(cpuinfo: str | None = None) -> str:
    """One line: ``CPU: <model>, <n> cores, flags: avx2 avx512f ... (no amx)``."""
    model, flags = cpu_flags(cpuinfo)
    shown = [f for f in FLAGS if f in flags]
    amx = "" if any(f.startswith("amx") for f in flags) else " (no AMX)"
    return f"CPU: {model}, {os.cpu_count()} cores, flags: {' '.join(shown) or 'none of ' + '/'.join(FLAGS)}{amx}"
