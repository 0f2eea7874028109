#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""Loudness of every bundled preset, measured by meters Clumsy did not write.

  Benchmarks/loudness.py [CLUMSY] [--calibrate]

Default: renders each bundled preset for 60 s with the defaults (mastered to -16 LUFS,
-1 dBTP) and prints a Markdown table: Clumsy's summary, ffmpeg's ebur128 filter
(integrated loudness, true peak) and pyloudnorm's integrated loudness.

--calibrate: renders each preset unnormalised (seed 1, --loudness off, 32-bit float) and
prints each preset's live gain, the value of its "sound": {"liveGain": …} (LiveCalibration):
min(-16 - I, -1 - TP) dB, where I and TP are ffmpeg's readings raised by the difference
between the live synth gain (sound.gain) and the offline one (0.4 x sound.gain): 7.96 dB.
"""
import math
import os
import re
import subprocess
import sys
import tempfile

clumsy = next((a for a in sys.argv[1:] if not a.startswith("--")), ".build/release/clumsy")
calibrate = "--calibrate" in sys.argv
OFFLINE_TO_LIVE_DB = -20 * math.log10(0.4)


def presets():
    out = subprocess.run([clumsy, "presets"], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def ffmpeg(path):
    err = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"],
                         capture_output=True, text=True).stderr
    summary = err[err.rfind("Summary:"):]
    loudness = float(re.search(r"I:\s+(-?[\d.]+) LUFS", summary).group(1))
    peak = float(re.search(r"Peak:\s+(-?[\d.]+) dBFS", summary).group(1))
    return loudness, peak


def pyloudnorm(path):
    try:
        import pyloudnorm as pyln
        import soundfile as sf
    except ImportError:
        return None
    data, rate = sf.read(path)
    return pyln.Meter(rate).integrated_loudness(data)


with tempfile.TemporaryDirectory() as directory:
    wav = os.path.join(directory, "x.wav")
    if calibrate:
        for preset in presets():
            subprocess.run([clumsy, "run", preset, "--duration", "60", "--seed", "1", "--audio", wav,
                            "--loudness", "off", "--bit-depth", "32f", "--quiet"], check=True)
            loudness, peak = ffmpeg(wav)
            live_i, live_tp = loudness + OFFLINE_TO_LIVE_DB, peak + OFFLINE_TO_LIVE_DB
            gain = min(-16 - live_i, -1 - live_tp)
            print(f'{preset}: "liveGain": {gain:.1f}'.ljust(44) + f"(live I {live_i:.1f} LUFS, TP {live_tp:.1f} dBTP)")
    else:
        print("| preset (60 s, defaults) | Clumsy's summary | ffmpeg `ebur128=peak=true` | pyloudnorm |")
        print("|---|---|---|---|")
        for preset in presets():
            out = subprocess.run([clumsy, "run", preset, "--duration", "60", "--audio", wav],
                                 capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
            summary = out[out.rfind(";") + 1:].strip()
            loudness, peak = ffmpeg(wav)
            py = pyloudnorm(wav)
            py_text = "—" if py is None else f"{py:.2f} LUFS".replace("-", "−")
            print(f"| `{preset}` | {summary} | {loudness:.1f} LUFS, {peak:.1f} dBTP | {py_text} |".replace("| -", "| −").replace(", -", ", −"))
