"""Sound effects synthesised with numpy at start-up (nothing downloaded).

``Sound.play(name)`` for ``dice`` (the throw), ``land`` (the dice come to rest),
``write``, ``scratch``, ``bonus`` (the upper bonus), ``fanfare`` (a Bonanza, a joker
bonus, a new best) and ``clock``.  Without an audio device (mixer init fails) every call is a
silent no-op: the game never crashes for want of sound.
"""
from __future__ import annotations

import numpy as np
import pygame

RATE = 22050
NAMES = ("dice", "land", "write", "scratch", "bonus", "fanfare", "clock")


def _env(n: int, attack: float = 0.005, decay: float = 8.0) -> np.ndarray:
    t = np.arange(n) / RATE
    a = np.clip(t / max(attack, 1e-4), 0, 1)
    return a * np.exp(-t * decay)


def _tone(freq: float, dur: float, decay: float = 6.0, harmonics=(1.0, 0.3, 0.1)) -> np.ndarray:
    n = int(RATE * dur)
    t = np.arange(n) / RATE
    wave = sum(a * np.sin(2 * np.pi * freq * (i + 1) * t) for i, a in enumerate(harmonics))
    return wave * _env(n, decay=decay)


def synth(name: str) -> np.ndarray:
    """Mono float samples in [-1, 1] for one effect."""
    rng = np.random.default_rng(sum(map(ord, name)))  # cosmetic noise only
    if name == "dice":
        out = np.zeros(int(RATE * 0.42))
        for k in range(9):
            start = int(RATE * (0.02 + 0.045 * k + rng.uniform(0, 0.015)))
            n = int(RATE * 0.03)
            click = rng.normal(0, 1, n) * _env(n, 0.001, 120) + _tone(rng.uniform(1800, 3200), 0.03, 90)
            seg = out[start:start + n]
            seg += click[: len(seg)] * (1.0 - k * 0.07)
        return out * 0.5
    if name == "land":
        # two wooden knocks: a low body thump under a short bright click each
        out = np.zeros(int(RATE * 0.16))
        for k, at in enumerate((0.0, 0.055)):
            i = int(RATE * at)
            n = int(RATE * 0.05)
            knock = (_tone(190 - 30 * k, 0.05, 60, (1.0, 0.4)) * 0.8
                     + rng.normal(0, 1, n) * _env(n, 0.0005, 160) * 0.35)
            out[i:i + n] += knock[: len(out) - i] * (1.0 - 0.35 * k)
        return 0.6 * out
    if name == "fanfare":
        # a brass-like rising arpeggio that lands on a held major chord with a shimmer
        def brass(f, dur, decay=3.0):
            return _tone(f, dur, decay, (1.0, 0.55, 0.35, 0.2, 0.1))
        lead = np.concatenate([brass(f, 0.1, 9) for f in (392.0, 523.25, 659.25)])
        n = int(RATE * 0.6)
        chord = sum(brass(f, 0.6, 3.5) for f in (523.25, 659.25, 783.99, 1046.5)) / 2.2
        t = np.arange(n) / RATE
        chord = chord * (1 + 0.08 * np.sin(2 * np.pi * 6 * t))      # vibrato-like swell
        sparkle = np.zeros(n)
        for k in range(6):
            i = int(RATE * (0.05 + 0.07 * k))
            m = int(RATE * 0.06)
            ping = _tone(2093.0 * (1 + 0.12 * (k % 3)), 0.06, 40, (1.0,))
            sparkle[i:i + m] += ping[: n - i] * 0.25
        return 0.36 * np.concatenate([lead, chord + sparkle])
    if name == "write":
        return 0.5 * np.concatenate([_tone(660, 0.07, 30), _tone(990, 0.16, 18)])
    if name == "scratch":
        n = int(RATE * 0.32)
        t = np.arange(n) / RATE
        f = 320 - 160 * t / t[-1]
        wave = np.sign(np.sin(2 * np.pi * np.cumsum(f) / RATE)) * 0.3 + rng.normal(0, 0.15, n)
        return 0.45 * wave * _env(n, 0.01, 7)
    if name == "bonus":
        notes = [523.25, 659.25, 783.99, 1046.5]
        return 0.45 * np.concatenate([_tone(f, 0.12 if i < 3 else 0.4, 10) for i, f in enumerate(notes)])
    if name == "clock":
        beep = _tone(1320, 0.09, 20, (1.0, 0.2))
        return 0.5 * np.concatenate([beep, np.zeros(int(RATE * 0.06)), beep])
    raise ValueError(name)


class Sound:
    def __init__(self, volume: float = 0.7, muted: bool = False):
        self.volume = volume
        self.muted = muted
        self.sounds: dict[str, pygame.mixer.Sound] = {}
        self.available = False
        self.played: list[str] = []     # what was asked for (tests read it)
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=RATE, size=-16, channels=2, buffer=512)
            spec = pygame.mixer.get_init()
            if spec is None:        # init returned without a mixer: play silently like any failure
                raise pygame.error("no mixer")
            freq, _fmt, channels = spec
            for name in NAMES:
                mono = np.clip(synth(name), -1, 1)
                if freq != RATE:
                    idx = np.linspace(0, len(mono) - 1, int(len(mono) * freq / RATE))
                    mono = np.interp(idx, np.arange(len(mono)), mono)
                pcm = (mono * 32767).astype(np.int16)
                arr = np.repeat(pcm[:, None], channels, axis=1) if channels > 1 else pcm
                self.sounds[name] = pygame.sndarray.make_sound(np.ascontiguousarray(arr))
            self.available = True
        except (pygame.error, ValueError, TypeError, OSError):
            self.sounds = {}
            self.available = False

    def set_volume(self, volume: float, muted: bool | None = None) -> None:
        self.volume = max(0.0, min(1.0, volume))
        if muted is not None:
            self.muted = muted

    def play(self, name: str) -> None:
        self.played.append(name)
        if len(self.played) > 200:
            del self.played[:100]
        snd = self.sounds.get(name)
        if snd is None or self.muted or self.volume <= 0:
            return
        try:
            snd.set_volume(self.volume)
            snd.play()
        except pygame.error:
            pass
