"""The built app's one program: the game window (and the ``bonanza`` subcommands), and the
relay when started as ``Bonanza relay ...`` or, as the window hosts a table, with
``-m bonanza.relay ...`` (client/hosting.py starts ``sys.executable -m bonanza.relay``, and in
a built app ``sys.executable`` is this program)."""
from __future__ import annotations

import time

_START = time.perf_counter()

import multiprocessing  # noqa: E402  (after _START: the start-up is measured from it)
import sys  # noqa: E402


def main() -> int:
    args = sys.argv[1:]
    if args[:1] == ["smoke-window"]:
        return smoke_window(int(args[1]) if len(args) > 1 else 5)
    if args[:2] == ["-m", "bonanza.relay"] or args[:1] == ["relay"]:
        from bonanza.relay.cli import main as relay_main
        return relay_main(args[2:] if args[0] == "-m" else args[1:])
    from bonanza.client.commands import main as game_main
    return game_main(args)


def smoke_window(frames: int) -> int:
    """The window for a few frames in a throw-away data folder, then the time from this
    program's start to the first frame (the packaging test and start-up figures use it)."""
    import tempfile

    from bonanza.client.app import App
    with tempfile.TemporaryDirectory() as data:
        app = App((1280, 720), data_dir=data, advisor=False, sound=False)
        try:
            app.step()
            first = time.perf_counter() - _START
            for _ in range(frames - 1):
                app.step()
            print(f"first frame {first * 1000:.0f} ms, {app.frames} frames, scene {type(app.scene).__name__}")
        finally:
            app.close()
    return 0


if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
